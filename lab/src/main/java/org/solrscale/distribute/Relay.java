package org.solrscale.distribute;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.solrscale.results.Route;

/**
 * A target of a distribution: it listens for its upstream, writes what arrives into its directory
 * (each chunk checked against its SHA-256 first, a bad one asked for again), and forwards it to its
 * own targets as it arrives. When its upstream goes away it waits for another (the one that takes
 * over), which resumes from what is here. It ends when its copy is complete and verified and every
 * target below it is served, or when no upstream comes back in time.
 */
public final class Relay implements AutoCloseable {
  /** The outcome at one target. */
  public record Result(
      @JsonProperty("ok") boolean ok,
      @JsonProperty("bytes_received") long bytesReceived,
      @JsonProperty("bytes_had") long bytesHad,
      @JsonProperty("files_had") int filesHad,
      @JsonProperty("files") int files,
      @JsonProperty("resent_chunks") int resentChunks,
      @JsonProperty("failed_targets") List<String> failedTargets,
      @JsonProperty("seconds") double seconds,
      @JsonProperty("error") String error) {}

  private final Path dir;
  private final ServerSocket server;
  private final Events events;
  private final long upstreamWaitMs;
  private final long[] corrupt; // a test's planted corruption: file index, offset (once)
  private final long bytesPerSecond;
  private final Path have;
  private volatile Store store;
  private Thread sending;
  private volatile List<String> failedBelow = List.of();
  private volatile int resent;
  private volatile long received;

  /**
   * A relay writing into {@code dir}, listening on {@code bind} (port 0: any); {@code
   * upstreamWaitMs}: how long it waits for an upstream (the first, or one after a failure); {@code
   * corruptChunk}: null, or "FILE_INDEX:OFFSET" to flip a byte of that chunk once as it arrives (to
   * prove a bad chunk is caught).
   */
  public Relay(
      Path dir, InetSocketAddress bind, Events events, long upstreamWaitMs, String corruptChunk)
      throws IOException {
    this(dir, bind, events, upstreamWaitMs, corruptChunk, 0, null);
  }

  /**
   * As above, forwarding at most {@code bytesPerSecond} to each target below (0: no cap); {@code
   * have}: null, or a directory (the live index of a replica being refreshed) whose files of this
   * distribution are linked into {@code dir} first, so that only the others are sent.
   */
  public Relay(
      Path dir,
      InetSocketAddress bind,
      Events events,
      long upstreamWaitMs,
      String corruptChunk,
      long bytesPerSecond,
      Path have)
      throws IOException {
    this.dir = dir;
    this.bytesPerSecond = bytesPerSecond;
    this.have = have;
    this.events = events;
    this.upstreamWaitMs = upstreamWaitMs;
    this.corrupt =
        corruptChunk == null
            ? null
            : Arrays.stream(corruptChunk.split(":")).mapToLong(Long::parseLong).toArray();
    server = new ServerSocket();
    server.setReuseAddress(true);
    server.bind(bind);
  }

  /** Bytes received so far (verified and written), and of all files (0 before the first hello). */
  public long[] progress() {
    Store st = store;
    return new long[] {received, st == null ? 0 : st.totalBytes() - st.bytesHad()};
  }

  /** The port it listens on. */
  public int port() {
    return server.getLocalPort();
  }

  /** Receives and forwards until its copy and those below it are done, or it fails. */
  public Result run() {
    long t0 = System.nanoTime();
    String error = null;
    try {
      while (store == null || !store.complete()) {
        Socket up = accept();
        try (up) {
          receive(up);
        } catch (IOException e) {
          // the upstream went away or broke the protocol: wait for the one that takes over
          events.upstream("lost: " + e.getMessage());
        }
      }
      // complete here; keep answering an upstream that takes over (it learns there is nothing
      // to send) while the targets below are served
      Thread answering = new Thread(this::answerLate, "late-upstreams");
      answering.setDaemon(true);
      answering.start();
      if (sending != null) {
        sending.join();
      }
    } catch (IOException | RuntimeException e) {
      error = e.getMessage() == null ? e.toString() : e.getMessage();
      if (store != null) {
        store.fail(error);
      }
      if (sending != null) {
        try {
          sending.join(DONE_JOIN_MS);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      error = "interrupted";
    }
    int had = 0;
    if (store != null) {
      for (int i = 0; i < store.files().size(); i++) {
        had += store.had(i) ? 1 : 0;
      }
    }
    long bytesHad = store == null ? 0 : store.bytesHad();
    return new Result(
        error == null,
        received,
        bytesHad,
        had,
        store == null ? 0 : store.files().size(),
        resent,
        failedBelow,
        (System.nanoTime() - t0) / 1e9,
        error);
  }

  private static final long DONE_JOIN_MS = 10_000;

  private Socket accept() throws IOException {
    server.setSoTimeout((int) Math.min(Integer.MAX_VALUE, upstreamWaitMs));
    try {
      Socket s = server.accept();
      s.setTcpNoDelay(true);
      events.upstream(s.getRemoteSocketAddress().toString());
      return s;
    } catch (SocketTimeoutException e) {
      throw new IOException(
          "no upstream "
              + (store == null ? "came" : "came back")
              + " within "
              + upstreamWaitMs / 1000
              + " s");
    }
  }

  /** One upstream connection: hello, have, then chunks until END (answered DONE) or an error. */
  private void receive(Socket up) throws IOException {
    DataInputStream in = new DataInputStream(new BufferedInputStream(up.getInputStream(), 1 << 16));
    DataOutputStream out = new DataOutputStream(new BufferedOutputStream(up.getOutputStream()));
    Wire.Hello hello = Wire.readHello(in);
    if (store == null) {
      if (have != null) {
        linkHad(hello.files());
      }
      store = new Store(dir, hello.files(), hello.chunk(), false);
      forward(hello.route().children());
    } else if (!store.files().equals(hello.files()) || store.chunk() != hello.chunk()) {
      throw new IOException("an upstream sent another distribution's files");
    }
    Wire.writeHave(out, store.availableAll());
    long[] skipUntil = null; // after a RESEND: chunks are dropped until that one comes again
    boolean corrupted = false;
    while (true) {
      byte type;
      try {
        type = in.readByte();
      } catch (EOFException e) {
        throw new IOException("the upstream closed before the end");
      }
      if (type == Wire.END) {
        if (store.complete()) {
          out.writeByte(Wire.DONE);
          out.flush();
          return;
        }
        continue; // a resend is under way; its own END follows
      }
      if (type != Wire.CHUNK) {
        throw new IOException("unexpected frame " + type);
      }
      int f = in.readInt();
      long offset = in.readLong();
      int len = in.readInt();
      if (f < 0 || f >= store.files().size() || len < 0 || len > store.chunk()) {
        throw new IOException("a chunk outside the files: " + f + " at " + offset);
      }
      byte[] hash = in.readNBytes(Wire.HASH);
      byte[] data = in.readNBytes(len);
      if (data.length != len) {
        throw new IOException("the upstream closed in the middle of a chunk");
      }
      if (skipUntil != null) {
        if (f != skipUntil[0] || offset != skipUntil[1]) {
          continue;
        }
        skipUntil = null;
      }
      long have = store.available(f);
      if (offset < have) {
        continue; // already here (sent again after a resend)
      }
      if (corrupt != null && !corrupted && f == corrupt[0] && offset == corrupt[1]) {
        data[0] ^= 0x5a; // planted by a test: this chunk arrives damaged, once
        corrupted = true;
      }
      if (offset > have || !Arrays.equals(hash, Store.sha256(data))) {
        resent++;
        events.resent(store.files().get(f).name(), have);
        out.writeByte(Wire.RESEND);
        out.writeInt(f);
        out.writeLong(have);
        out.flush();
        skipUntil = new long[] {f, have};
        continue;
      }
      store.append(f, offset, data);
      received += len;
    }
  }

  /**
   * The files of this distribution that {@code have} holds with the leader's length are linked here
   * (copied where a link cannot be made); the store then checks each by its footer checksum, and
   * one that differs is received like any other.
   */
  private void linkHad(List<IndexFile> files) throws IOException {
    Files.createDirectories(dir);
    for (IndexFile f : files) {
      Path from = have.resolve(f.name());
      Path to = dir.resolve(f.name());
      if (Files.exists(to) || !Files.isRegularFile(from) || Files.size(from) != f.length()) {
        continue;
      }
      try {
        Files.createLink(to, from);
      } catch (IOException | UnsupportedOperationException e) {
        Files.copy(from, to); // another file system: a local copy still beats the network
      }
    }
  }

  /** Starts serving the targets below this one, from the store, while it fills. */
  private void forward(List<Route> below) {
    sending =
        new Thread(
            () -> {
              try {
                failedBelow = new Forwarder(store, events, bytesPerSecond).serve(below);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "forward");
    sending.setDaemon(true);
    sending.start();
  }

  /** After completion: an upstream that takes over is told everything is here. */
  private void answerLate() {
    while (!server.isClosed()) {
      try (Socket up = server.accept()) {
        receive(up);
      } catch (IOException e) {
        // closed, or a confused upstream: nothing here depends on it
      }
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    if (store != null) {
      store.close();
    }
  }
}
