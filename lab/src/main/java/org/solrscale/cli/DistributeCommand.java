package org.solrscale.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.solrscale.cluster.Cluster;
import org.solrscale.distribute.Distributor;
import org.solrscale.distribute.Overview;
import org.solrscale.distribute.TargetsLog;
import org.solrscale.results.Distribution;
import org.solrscale.results.RunResults;
import org.solrscale.spec.ExitCode;
import org.solrscale.spec.SolrscaleException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
    name = "distribute",
    description =
        "Add replicas of a collection's shards and bring them to active, the index sent peer to"
            + " peer (chain or tree: each target forwards what it receives) or by Solr's own"
            + " replication (solr), timed the same way.")
final class DistributeCommand implements Callable<Integer> {
  @Option(
      names = "--name",
      defaultValue = "lab",
      description = "Cluster name (default: ${DEFAULT-VALUE}).")
  String name;

  @Option(names = "--collection", required = true, description = "The collection.")
  String collection;

  @Option(
      names = "--shard",
      split = ",",
      paramLabel = "SHARD",
      description = "These shards only (default: every shard).")
  List<String> shards;

  @Option(
      names = "--replicas",
      required = true,
      paramLabel = "N",
      description = "New replicas of each shard.")
  int replicas;

  @Option(
      names = "--type",
      defaultValue = "pull",
      description = "Replica type: pull, tlog or nrt (default: ${DEFAULT-VALUE}).")
  String type;

  @Option(
      names = "--nodes",
      split = ",",
      paramLabel = "NODE",
      description = "Put them on these Solr nodes only (default: any without a replica of it).")
  List<String> nodes;

  @Option(
      names = "--method",
      defaultValue = "chain",
      description = "chain, tree or solr (default: ${DEFAULT-VALUE}).")
  String method;

  @Option(
      names = "--create",
      defaultValue = "together",
      description =
          "together: one ADDREPLICA for each shard's new replicas, so that Solr creates their"
              + " cores at once; each: one ADDREPLICA per replica, which Solr runs one after"
              + " another (default: ${DEFAULT-VALUE}).")
  String create;

  @Option(
      names = "--chunk-kb",
      defaultValue = "1024",
      description = "Chunk size in KiB (default: ${DEFAULT-VALUE}).")
  int chunkKb;

  @Option(
      names = "--timeout",
      defaultValue = "10m",
      converter = DurationConverter.class,
      description = "Give up on a replica after this long (default: ${DEFAULT-VALUE}).")
  Duration timeout;

  @Option(
      names = "--max-mbit",
      defaultValue = "0",
      paramLabel = "MBIT",
      description =
          "chain, tree: send at most MBIT Mbit/s from each peer to each target, to spare a busy"
              + " network (default: no cap).")
  int maxMbit;

  @Option(
      names = "--refresh",
      description =
          "chain, tree: also bring each existing PULL and TLOG replica to the leader's current"
              + " commit: only the files it lacks are sent to its host, then it is replaced, one at"
              + " a time, by a replica of the complete copy (--replicas may then be 0).")
  boolean refresh;

  @Option(
      names = "--test-corrupt-chunk",
      hidden = true,
      description = "Tests: NODE=FILE_INDEX:OFFSET, a chunk that arrives damaged there once.")
  String corruptAt;

  @Option(names = "--out", description = "Write distribute.json and overview.csv here.")
  Path out;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Mixin LiveOption liveView;

  @Override
  public Integer call() throws Exception {
    return liveView.around(out, "distribute", 0, this::distribute);
  }

  private int distribute() throws IOException {
    if (out != null) {
      java.nio.file.Files.deleteIfExists(out.resolve(TargetsLog.FILE)); // an earlier run's
    }
    if (replicas < (refresh ? 0 : 1) || replicas > 100) {
      throw SolrscaleException.usage(
          "--replicas " + replicas + " must be " + (refresh ? 0 : 1) + " to 100");
    }
    if (!List.of("pull", "tlog", "nrt").contains(type.toLowerCase(Locale.ROOT))) {
      throw SolrscaleException.usage("--type '" + type + "' is not one of pull, tlog, nrt");
    }
    if (maxMbit < 0 || maxMbit > 100_000) {
      throw SolrscaleException.usage("--max-mbit " + maxMbit + " must be 0 (no cap) to 100000");
    }
    if (chunkKb < 16 || chunkKb > 65536) {
      throw SolrscaleException.usage("--chunk-kb " + chunkKb + " must be 16 to 65536");
    }
    Distributor.Method m = Distributor.Method.parse(method);
    Distributor.Create c = Distributor.Create.parse(create);
    Cluster cluster = new Cluster(Terminal.home(), name, Terminal.progress());
    Map<String, Overview.Row> latest = new LinkedHashMap<>();
    List<Overview.Row> rows = new ArrayList<>();
    long[] printedAt = {0};
    TargetsLog targets =
        new TargetsLog(
            out,
            row -> {
              synchronized (latest) {
                rows.add(row);
                latest.put(row.shard() + "/" + row.node(), row);
                long now = System.currentTimeMillis();
                if (!json && now - printedAt[0] >= 2000) {
                  printedAt[0] = now;
                  System.err.print(Overview.table(List.copyOf(latest.values())));
                }
              }
            });
    Distributor d = new Distributor(cluster, Terminal.progress(), targets);
    Distribution r =
        d.run(
            new Distributor.Options(
                collection,
                shards,
                replicas,
                type.toLowerCase(Locale.ROOT),
                nodes,
                m,
                chunkKb * 1024,
                timeout,
                maxMbit * 125_000L,
                refresh,
                c,
                corruptAt));
    targets.finished(r);
    if (out != null) {
      // the folder is also a run of one distribute step, so that `report DIR` draws it
      RunResults.writeCommandOut(out, "distribute.json", "distribute", r, null);
      synchronized (latest) {
        Overview.write(out, rows);
      }
    }
    if (json) {
      Terminal.printJson(r);
    } else {
      print(r);
    }
    return r.ok() ? 0 : ExitCode.FAILED.code();
  }

  private static void print(Distribution r) {
    System.out.printf(
        Locale.ROOT,
        "%s: %d new %s replica(s) per shard by %s in %.1f s%s%n",
        r.collection(),
        r.replicas(),
        r.type(),
        r.method(),
        r.seconds(),
        r.setupSeconds() >= 0.05
            ? String.format(
                Locale.ROOT, " (after %.1f s putting solrscale on the hosts)", r.setupSeconds())
            : "");
    System.out.printf(
        Locale.ROOT,
        "%-8s %-8s %-22s %-7s %9s %9s %11s %8s %8s %9s%n",
        "SHARD",
        "NODE",
        "CORE",
        "STATE",
        "SENT MB",
        "HAD MB",
        "SOLR GOT MB",
        "DATA s",
        "ACTIVE s",
        "DOCS");
    for (Distribution.ShardRun s : r.shards()) {
      for (Distribution.Target t : s.targets()) {
        System.out.printf(
            Locale.ROOT,
            "%-8s %-8s %-22s %-7s %9.1f %9.1f %11s %8s %8s %9s%n",
            t.shard(),
            t.node(),
            t.core() == null ? "-" : t.core(),
            t.state(),
            t.bytesReceived() / 1e6,
            t.bytesHad() / 1e6,
            t.solrBytesDownloaded() == null
                ? "-"
                : String.format(Locale.ROOT, "%.1f", t.solrBytesDownloaded() / 1e6),
            t.secondsToData() == null ? "-" : String.format(Locale.ROOT, "%.1f", t.secondsToData()),
            t.secondsToActive() == null
                ? "-"
                : String.format(Locale.ROOT, "%.1f", t.secondsToActive()),
            t.docs() == null ? "-" : t.docs().toString());
        if (t.replaced() != null && t.error() == null) {
          System.out.println("  " + t.node() + ": in place of " + t.replaced() + " (refreshed)");
        }
        if (t.error() != null) {
          System.out.println("  " + t.node() + ": " + t.error());
        }
      }
    }
  }
}
