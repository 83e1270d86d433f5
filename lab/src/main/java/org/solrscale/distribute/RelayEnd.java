package org.solrscale.distribute;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.solrscale.results.Route;
import org.solrscale.runtime.FileTrees;
import org.solrscale.spec.SolrscaleException;

/**
 * One end of a distribution as its own process (`solrscale relay ...`, started by the coordinator
 * here or on a host over SSH): a target that receives and forwards, the source that reads the
 * leader's pinned files, or the removal of a failed target's seed. Each line it prints is one JSON
 * event ({@link RelayProcess} reads them). It ends itself when what it prints goes nowhere: whoever
 * started it (distribute, or its ssh, where no hang-up signal comes without a terminal) is gone or
 * gave up on it, so nothing would use what it receives or sends.
 */
public final class RelayEnd implements Events {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long BEAT_MS = 500;

  private final PrintStream out;

  public RelayEnd(PrintStream out) {
    this.out = out;
  }

  /** Prints one event as a line of JSON, at once. */
  synchronized void emit(String event, Map<String, Object> fields) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("event", event);
    m.put("t_ms", System.currentTimeMillis());
    m.putAll(fields);
    try {
      out.println(JSON.writeValueAsString(m));
    } catch (IOException e) {
      out.println("{\"event\":\"unprintable\"}");
    }
    out.flush();
  }

  /** Ends this process (exit code 3) when nobody reads what it prints any more. */
  private void exitWhenNobodyListens() {
    if (out.checkError()) {
      Runtime.getRuntime().halt(3);
    }
  }

  @Override
  public void upstream(String from) {
    emit("upstream", Map.of("from", from));
  }

  @Override
  public void resent(String file, long offset) {
    emit("resent", Map.of("file", file, "offset", offset));
  }

  @Override
  public void childFailed(String child, String why) {
    emit("target-failed", Map.of("target", child, "why", why));
  }

  @Override
  public void childDone(String child) {
    emit("target-done", Map.of("target", child));
  }

  /** Every half second, a line from {@code line} (progress, or a heartbeat) while it runs. */
  private Thread every(Runnable line, String name) {
    Thread t =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                line.run();
                exitWhenNobodyListens();
                try {
                  Thread.sleep(BEAT_MS);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  /**
   * A target: listens on {@code bind} (any port; says where, with its pid), receives into {@code
   * dir} and forwards (see {@link Relay}); the exit code: 0 when its copy is complete and verified.
   */
  public int receive(
      Path dir, String bind, long waitSeconds, String corruptChunk, long bytesPerSecond, Path have)
      throws IOException {
    try (Relay relay =
        new Relay(
            dir,
            new InetSocketAddress(bind, 0),
            this,
            waitSeconds * 1000,
            corruptChunk,
            bytesPerSecond,
            have)) {
      emit(
          "listening",
          Map.of("address", bind + ":" + relay.port(), "pid", ProcessHandle.current().pid()));
      Thread progress =
          every(
              () -> {
                long[] p = relay.progress();
                emit("progress", Map.of("bytes", p[0], "total", p[1]));
              },
              "progress");
      Relay.Result r = relay.run();
      progress.interrupt();
      emit("result", JSON.convertValue(r, new TypeReference<Map<String, Object>>() {}));
      return r.ok() ? 0 : 1;
    }
  }

  /** The source: sends the pinned files of {@code dir} (as JSON) along the route (as JSON). */
  public int send(Path dir, String filesJson, String routeJson, int chunk, long bytesPerSecond)
      throws IOException, InterruptedException {
    List<IndexFile> files = JSON.readValue(filesJson, new TypeReference<List<IndexFile>>() {});
    Route route = JSON.readValue(routeJson, Route.class);
    long t0 = System.nanoTime();
    Thread beat = every(() -> emit("alive", Map.of()), "heartbeat");
    List<String> failed = Source.send(dir, files, chunk, route, this, bytesPerSecond);
    beat.interrupt();
    emit("sent", Map.of("failed_targets", failed, "seconds", (System.nanoTime() - t0) / 1e9));
    return 0;
  }

  /** Removes a failed target's seed: only a directory directly under a "distribute" directory. */
  public int remove(Path dir) {
    Path parent = dir.toAbsolutePath().normalize().getParent();
    if (parent == null
        || parent.getFileName() == null
        || !parent.getFileName().toString().equals("distribute")) {
      throw SolrscaleException.usage(dir + " is not a seed directory of distribute; not removed");
    }
    FileTrees.delete(dir);
    emit("removed", Map.of("dir", dir.toString()));
    return 0;
  }
}
