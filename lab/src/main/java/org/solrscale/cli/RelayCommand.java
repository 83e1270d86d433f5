package org.solrscale.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.solrscale.distribute.Events;
import org.solrscale.distribute.IndexFile;
import org.solrscale.distribute.Relay;
import org.solrscale.distribute.Route;
import org.solrscale.distribute.Source;
import org.solrscale.runtime.FileTrees;
import org.solrscale.spec.SolrscaleException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * One end of an index distribution, started by `distribute` on a host (over SSH) or here: a target
 * that receives and forwards ({@code relay receive}), or the source that reads the leader's pinned
 * files ({@code relay send}). Each line it prints is one JSON event, for the coordinator to read.
 */
@Command(
    name = "relay",
    hidden = true,
    description = "Internal: one end of `distribute`; prints JSON events, one per line.",
    subcommands = {RelayCommand.Receive.class, RelayCommand.Send.class, RelayCommand.Remove.class})
final class RelayCommand {
  static final ObjectMapper JSON = new ObjectMapper();

  /** Prints one event as a line of JSON, at once. */
  static synchronized void emit(String event, Map<String, Object> fields) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("event", event);
    m.put("t_ms", System.currentTimeMillis());
    m.putAll(fields);
    try {
      System.out.println(JSON.writeValueAsString(m));
    } catch (Exception e) {
      System.out.println("{\"event\":\"unprintable\"}");
    }
    System.out.flush();
  }

  /**
   * Ends this process when what it prints goes nowhere: whoever started it (distribute, here or
   * through ssh, where no hang-up signal comes without a terminal) is gone or gave up on it, so
   * nothing would use what it receives or sends.
   */
  static void exitWhenNobodyListens() {
    if (System.out.checkError()) {
      Runtime.getRuntime().halt(3);
    }
  }

  /** For the sender: a heartbeat that also notices when nobody listens any more. */
  static Thread heartbeat() {
    Thread t =
        new Thread(
            () -> {
              while (true) {
                try {
                  Thread.sleep(500);
                } catch (InterruptedException e) {
                  return;
                }
                emit("alive", Map.of());
                exitWhenNobodyListens();
              }
            },
            "heartbeat");
    t.setDaemon(true);
    t.start();
    return t;
  }

  static final Events PRINTED =
      new Events() {
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
      };

  @Command(name = "receive", description = "Receive into a directory, forward to the route below.")
  static final class Receive implements Callable<Integer> {
    @Option(names = "--dir", required = true, description = "The directory files go into.")
    Path dir;

    @Option(names = "--bind", required = true, description = "ADDRESS to listen on (any port).")
    String bind;

    @Option(
        names = "--wait-seconds",
        defaultValue = "120",
        description = "How long to wait for an upstream.")
    long waitSeconds;

    @Option(names = "--corrupt-chunk", description = "Tests: damage chunk FILE_INDEX:OFFSET once.")
    String corrupt;

    @Option(names = "--max-bytes-per-second", defaultValue = "0", description = "Cap per target.")
    long cap;

    @Option(names = "--have", description = "A live index whose files need not be sent again.")
    Path have;

    @Override
    public Integer call() throws Exception {
      try (Relay relay =
          new Relay(
              dir,
              new InetSocketAddress(bind, 0),
              PRINTED,
              waitSeconds * 1000,
              corrupt,
              cap,
              have)) {
        emit(
            "listening",
            Map.of("address", bind + ":" + relay.port(), "pid", ProcessHandle.current().pid()));
        Thread progress =
            new Thread(
                () -> {
                  while (!Thread.currentThread().isInterrupted()) {
                    long[] p = relay.progress();
                    emit("progress", Map.of("bytes", p[0], "total", p[1]));
                    exitWhenNobodyListens();
                    try {
                      Thread.sleep(500);
                    } catch (InterruptedException e) {
                      return;
                    }
                  }
                },
                "progress");
        progress.setDaemon(true);
        progress.start();
        Relay.Result r = relay.run();
        progress.interrupt();
        emit("result", JSON.convertValue(r, new TypeReference<Map<String, Object>>() {}));
        return r.ok() ? 0 : 1;
      }
    }
  }

  @Command(name = "send", description = "Send pinned files along a route.")
  static final class Send implements Callable<Integer> {
    @Option(names = "--dir", required = true, description = "The leader's index directory.")
    Path dir;

    @Option(names = "--files", required = true, description = "The files, as JSON.")
    String files;

    @Option(names = "--route", required = true, description = "The route, as JSON.")
    String route;

    @Option(names = "--chunk", defaultValue = "1048576", description = "Chunk size in bytes.")
    int chunk;

    @Option(names = "--max-bytes-per-second", defaultValue = "0", description = "Cap per target.")
    long cap;

    @Override
    public Integer call() throws Exception {
      List<IndexFile> list = JSON.readValue(files, new TypeReference<List<IndexFile>>() {});
      Route r = JSON.readValue(route, Route.class);
      long t0 = System.nanoTime();
      Thread beat = heartbeat();
      List<String> failed = Source.send(dir, list, chunk, r, PRINTED, cap);
      beat.interrupt();
      emit("sent", Map.of("failed_targets", failed, "seconds", (System.nanoTime() - t0) / 1e9));
      return 0;
    }
  }

  @Command(
      name = "remove",
      description = "Remove a failed target's seed directory (one under a 'distribute' directory).")
  static final class Remove implements Callable<Integer> {
    @Option(names = "--dir", required = true, description = "The seed directory.")
    Path dir;

    @Override
    public Integer call() {
      Path parent = dir.toAbsolutePath().normalize().getParent();
      if (parent == null || !parent.getFileName().toString().equals("distribute")) {
        throw SolrscaleException.usage(dir + " is not a seed directory of distribute; not removed");
      }
      FileTrees.delete(dir);
      emit("removed", Map.of("dir", dir.toString()));
      return 0;
    }
  }
}
