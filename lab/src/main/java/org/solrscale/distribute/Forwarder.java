package org.solrscale.distribute;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.solrscale.results.Route;

/**
 * Sends a store's files to one target, from what the store has verified, while it grows: the target
 * says what it has, gets the rest chunk by chunk with each chunk's SHA-256, and answers DONE when
 * all is there and verified. A target that fails (cannot be reached, breaks the connection, never
 * says DONE) is reported, and its own targets are served from here instead, so the chain or tree
 * re-forms around it.
 */
final class Forwarder {
  static final int CONNECT_MS = 5_000;
  static final int CONNECT_TRIES = 20;
  static final long DONE_WAIT_MS = 120_000;

  private final Store store;
  private final Events events;
  private final long bytesPerSecond;
  private final List<String> failed = new ArrayList<>();

  /** {@code bytesPerSecond}: the most each connection sends per second (0: no cap). */
  Forwarder(Store store, Events events, long bytesPerSecond) {
    this.store = store;
    this.events = events;
    this.bytesPerSecond = bytesPerSecond;
  }

  /**
   * Serves every target of {@code routes} (each with its own thread), taking over the targets of
   * any that fail; returns the addresses that failed.
   */
  List<String> serve(List<Route> routes) throws InterruptedException {
    List<Thread> threads = new ArrayList<>();
    for (Route r : routes) {
      Thread t = new Thread(() -> serveOne(r), "send-to-" + r.address());
      t.setDaemon(true);
      t.start();
      threads.add(t);
    }
    for (Thread t : threads) {
      t.join();
    }
    synchronized (failed) {
      return List.copyOf(failed);
    }
  }

  private void serveOne(Route r) {
    try {
      send(r);
      events.childDone(r.address());
    } catch (IOException | RuntimeException e) {
      synchronized (failed) {
        failed.add(r.address());
      }
      events.childFailed(r.address(), e.getMessage() == null ? e.toString() : e.getMessage());
      try {
        serve(r.children()); // its targets now get the data from here
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Socket connect(String address) throws IOException, InterruptedException {
    int colon = address.lastIndexOf(':');
    InetSocketAddress to =
        new InetSocketAddress(
            address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)));
    IOException last = null;
    for (int i = 0; i < CONNECT_TRIES; i++) {
      Socket s = new Socket();
      try {
        s.connect(to, CONNECT_MS);
        s.setTcpNoDelay(true);
        return s;
      } catch (IOException e) {
        s.close();
        last = e;
        Thread.sleep(250);
      }
    }
    throw new IOException("cannot reach " + address + ": " + last.getMessage());
  }

  private void send(Route r) throws IOException, InterruptedException {
    List<IndexFile> files = store.files();
    try (Socket s = connect(r.address())) {
      DataOutputStream out =
          new DataOutputStream(new BufferedOutputStream(s.getOutputStream(), 1 << 16));
      DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
      Wire.writeHello(out, new Wire.Hello(files, store.chunk(), r));
      long[] have = Wire.readHave(in, files.size());
      AtomicReference<long[]> rewind = new AtomicReference<>();
      AtomicReference<Object> answer = new AtomicReference<>();
      Thread reader = new Thread(() -> listen(in, rewind, answer), "answers-of-" + r.address());
      reader.setDaemon(true);
      reader.start();
      int f = 0;
      long pos = have.length > 0 ? have[0] : 0;
      long paceStart = System.nanoTime();
      long paced = 0;
      while (f < files.size()) {
        long[] back = rewind.getAndSet(null);
        if (back != null) {
          f = (int) back[0];
          pos = back[1];
        }
        if (answer.get() instanceof IOException e) {
          throw e;
        }
        long length = files.get(f).length();
        if (pos >= length) {
          f++;
          pos = f < files.size() ? have[f] : 0;
          continue;
        }
        long upTo = Math.min(pos + store.chunk(), length);
        if (!store.await(f, upTo, 500)) {
          out.flush(); // what is sent so far goes now, not when the buffer fills
          continue;
        }
        byte[] data = store.read(f, pos);
        writeChunk(out, f, pos, data);
        pos += data.length;
        paced += data.length;
        pace(paceStart, paced);
      }
      out.writeByte(Wire.END);
      out.flush();
      long deadline = System.currentTimeMillis() + DONE_WAIT_MS;
      while (System.currentTimeMillis() < deadline) {
        Object a = answer.get();
        if (a == Boolean.TRUE) {
          return;
        }
        if (a instanceof IOException e) {
          throw e;
        }
        long[] back = rewind.getAndSet(null);
        if (back != null) { // a chunk near the end failed its hash: send from there again
          resendFrom(out, back);
        }
        Thread.sleep(20);
      }
      throw new IOException(r.address() + " did not confirm within " + DONE_WAIT_MS / 1000 + " s");
    }
  }

  /** Under a cap, waits until {@code bytes} sent since {@code start} are within it. */
  private void pace(long start, long bytes) throws InterruptedException {
    if (bytesPerSecond <= 0) {
      return;
    }
    long dueNanos = bytes * 1_000_000_000L / bytesPerSecond;
    long early = dueNanos - (System.nanoTime() - start);
    if (early > 1_000_000) {
      Thread.sleep(early / 1_000_000);
    }
  }

  /** One CHUNK frame: the file, the offset, the length, the chunk's SHA-256, the bytes. */
  private static void writeChunk(DataOutputStream out, int f, long pos, byte[] data)
      throws IOException {
    out.writeByte(Wire.CHUNK);
    out.writeInt(f);
    out.writeLong(pos);
    out.writeInt(data.length);
    out.write(Store.sha256(data));
    out.write(data);
  }

  /** After END: the rest from a rewound offset, then END again. */
  private void resendFrom(DataOutputStream out, long[] back) throws IOException {
    List<IndexFile> files = store.files();
    long pos = back[1];
    for (int f = (int) back[0]; f < files.size(); f++) {
      for (; pos < files.get(f).length(); ) {
        byte[] data = store.read(f, pos);
        writeChunk(out, f, pos, data);
        pos += data.length;
      }
      pos = 0; // later files: the receiver skips chunks it has
    }
    out.writeByte(Wire.END);
    out.flush();
  }

  /** The receiver's answers: RESEND (rewind) and DONE; an error or EOF before DONE fails it. */
  private static void listen(
      DataInputStream in, AtomicReference<long[]> rewind, AtomicReference<Object> answer) {
    try {
      while (true) {
        byte type = in.readByte();
        if (type == Wire.RESEND) {
          rewind.set(new long[] {in.readInt(), in.readLong()});
        } else if (type == Wire.DONE) {
          answer.set(Boolean.TRUE);
          return;
        } else {
          throw new IOException("unexpected answer " + type);
        }
      }
    } catch (IOException e) {
      answer.compareAndSet(null, e);
    }
  }
}
