package org.solrscale.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.solrscale.cluster.Access;
import org.solrscale.cluster.HostProbe;
import org.solrscale.cluster.Parallel;
import org.solrscale.cluster.Ssh;
import org.solrscale.results.BenchSummary;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.runtime.SolrscaleJar;
import org.solrscale.spec.ClusterSpec;
import org.solrscale.spec.HostSpec;
import org.solrscale.spec.SolrscaleException;

/**
 * A bench on several driver hosts: solrscale's own jar and the query files are put on each host
 * (once, by content), one {@code bench} process runs on each with its share of the rate or of the
 * threads, all told to start at the same moment (each host's clock offset taken into account), and
 * their run directories are fetched and merged exactly ({@link DriverMerge}).
 */
public final class Drivers {
  /** solrscale's jar needs this Java on a driver host. */
  static final int JAVA = 17;

  /** How long the drivers get to reach their hosts and start before the common start. */
  static final Duration LEAD = Duration.ofSeconds(5);

  /**
   * What each driver runs: {@code args} are bench's options common to all (not --queries, --rate,
   * --threads, --out, --seed; see {@link Common}), {@code queries} the local query files in the
   * order of the --queries mix, {@code weights} their weights (null: as in the file list), and the
   * load to split: threads, or the rate (several: a staircase, each step split).
   */
  public record Plan(
      List<HostSpec> hosts,
      List<String> args,
      List<Path> queries,
      List<String> weights,
      Integer threads,
      List<Double> rates,
      long seed,
      Duration runTime,
      double maxErrorRate) {}

  /** bench's settings every driver of one run shares, as the options of the command each runs. */
  public record Common(
      List<String> urls,
      String collection,
      Duration warmup,
      Duration duration,
      Duration stepDuration,
      Duration timeout,
      String order,
      double zipf,
      String arrivals,
      int connections,
      double maxErrorRate,
      String routing,
      String shardsPreference,
      boolean shardsTolerant,
      String compression,
      List<String> templates) {

    public List<String> args() {
      List<String> args = new ArrayList<>();
      args.addAll(List.of("--url", String.join(",", urls), "--collection", collection));
      args.addAll(List.of("--warmup", warmup.toMillis() + "ms"));
      args.addAll(List.of("--duration", duration.toMillis() + "ms"));
      args.addAll(List.of("--step-duration", stepDuration.toMillis() + "ms"));
      args.addAll(List.of("--timeout", timeout.toMillis() + "ms", "--order", order));
      args.addAll(List.of("--zipf", Double.toString(zipf), "--arrivals", arrivals));
      args.addAll(List.of("--connections", Integer.toString(connections)));
      args.addAll(List.of("--max-error-rate", Double.toString(maxErrorRate)));
      // a node named by id is this machine's name for it: a driver gets its URL
      args.addAll(
          List.of("--routing", routing.startsWith("node:") ? "node:" + urls.get(0) : routing));
      if (shardsPreference != null) {
        args.addAll(List.of("--shards-preference", shardsPreference));
      }
      if (shardsTolerant) {
        args.add("--shards-tolerant");
      }
      if (compression != null) {
        args.addAll(List.of("--compression", compression));
      }
      if (templates != null && !templates.isEmpty()) {
        args.addAll(List.of("--templates", String.join(",", templates)));
      }
      return args;
    }

    /** How long a driver runs: warm-up, then the duration or every step of a staircase. */
    public Duration runTime(List<Double> rates) {
      return warmup.plus(
          rates != null && rates.size() > 1 ? stepDuration.multipliedBy(rates.size()) : duration);
    }
  }

  private Drivers() {}

  /**
   * The driver host named {@code name}: the cluster's host of that name (its port, Java and
   * directory), which must be allowed the role driver, or else a host known only to ssh.
   */
  public static HostSpec host(String name, ClusterSpec spec) {
    HostSpec known =
        spec == null
            ? null
            : spec.hosts().stream().filter(h -> h.ssh().equals(name)).findFirst().orElse(null);
    if (known == null) {
      return HostSpec.of(name);
    }
    if (!known.may("driver")) {
      throw SolrscaleException.usage(
          "host "
              + name
              + " may not run drivers (its roles: "
              + String.join(", ", known.roles())
              + "); give it the role driver or name another host");
    }
    return known;
  }

  /** Each driver's share: every rate divided evenly, or the threads as evenly as whole ones go. */
  static List<String[]> shares(Plan p) {
    List<String[]> out = new ArrayList<>();
    int n = p.hosts().size();
    for (int i = 0; i < n; i++) {
      if (p.rates() != null) {
        out.add(
            new String[] {
              "--rate",
              p.rates().stream()
                  .map(r -> Double.toString(r / n))
                  .collect(java.util.stream.Collectors.joining(","))
            });
      } else {
        int t = p.threads() / n + (i < p.threads() % n ? 1 : 0);
        out.add(new String[] {"--threads", Integer.toString(t)});
      }
    }
    return out;
  }

  /** Runs the plan and writes the merged run into {@code out}; returns the merged summary. */
  public static BenchSummary run(
      SolrscaleHome home, Plan p, Access access, Path out, Consumer<String> progress)
      throws IOException {
    if (p.threads() != null && p.threads() < p.hosts().size()) {
      throw SolrscaleException.usage(
          "--threads " + p.threads() + " is fewer than the " + p.hosts().size() + " drivers");
    }
    if (access.hasTruststore()) {
      throw SolrscaleException.usage(
          "bench --drivers does not speak TLS with its own trust store yet: run the load from this"
              + " machine, or against a cluster without --tls");
    }
    Path jar = SolrscaleJar.path("--drivers");
    Files.createDirectories(out);
    Ssh ssh = new Ssh(home, home.dir().resolve("drivers"));
    List<HostSpec> hosts = p.hosts();
    List<String[]> shares = shares(p);
    String runId = "run-" + System.currentTimeMillis();
    try {
      // every host checked and given the jar and queries before any starts
      List<HostProbe.Info> infos =
          Parallel.map(
              hosts,
              h -> {
                HostProbe.Info info = HostProbe.probe(ssh, h, JAVA);
                if (info.java() == null) {
                  throw SolrscaleException.environment(
                      "driver host "
                          + h.ssh()
                          + " has no Java "
                          + JAVA
                          + " or newer"
                          + (info.tooOldJava() == null ? "" : " (found " + info.tooOldJava() + ")")
                          + "; install one there");
                }
                return info;
              });
      List<List<String>> commands = new ArrayList<>();
      long startAt = System.currentTimeMillis() + LEAD.toMillis();
      for (int i = 0; i < hosts.size(); i++) {
        HostSpec h = hosts.get(i);
        HostProbe.Info info = infos.get(i);
        Ssh.Put put = ssh.putOnce(h, info.dir(), jar, info.rsync());
        String dir = info.dir() + "/drivers/" + runId;
        List<String> mix = new ArrayList<>();
        for (int q = 0; q < p.queries().size(); q++) {
          Ssh.Put qf = ssh.putOnce(h, info.dir(), p.queries().get(q), info.rsync());
          mix.add(qf.path() + (p.weights().get(q) == null ? "" : ":" + p.weights().get(q)));
        }
        progress.accept(
            h.ssh()
                + ": driver "
                + (i + 1)
                + " of "
                + hosts.size()
                + ", "
                + shares.get(i)[0].substring(2)
                + " "
                + shares.get(i)[1]
                + (put.bytes() > 0
                    ? String.format(", solrscale's jar copied (%,d bytes)", put.bytes())
                    : ""));
        List<String> cmd = new ArrayList<>(List.of(info.java(), "-jar", put.path(), "bench"));
        cmd.addAll(p.args());
        cmd.addAll(List.of("--queries", String.join(",", mix)));
        cmd.addAll(List.of(shares.get(i)));
        cmd.addAll(List.of("--seed", Long.toString(p.seed() + i)));
        cmd.addAll(List.of("--out", dir + "/out"));
        cmd.addAll(List.of("--start-at", Long.toString(startAt + info.clockOffsetMs())));
        if (access.authenticated()) { // the password goes through stdin, never into ps
          cmd.addAll(List.of("--user", access.user(), "--password-file", "-"));
        }
        commands.add(cmd);
      }
      Duration limit = p.runTime().plus(LEAD).plusMinutes(2);
      List<Ssh.Result> results = new ArrayList<>();
      for (Ssh.Result r :
          Parallel.map(
              List.of(range(hosts.size())),
              i ->
                  ssh.run(
                      hosts.get(i),
                      commands.get(i),
                      access.authenticated() ? access.secretForStdin() + "\n" : null,
                      limit))) {
        results.add(r);
      }
      List<DriverMerge.Driver> dirs = new ArrayList<>();
      List<Long> starts = new ArrayList<>();
      for (int i = 0; i < hosts.size(); i++) {
        HostSpec h = hosts.get(i);
        Ssh.Result r = results.get(i);
        if (r.exit() != 0 && r.exit() != 1) { // 1: the driver ran but measured nothing worth it
          throw ssh.failure(h, r, "the driver");
        }
        Path local = out.resolve("drivers").resolve(h.ssh());
        ssh.fetch(
            h, infos.get(i).dir() + "/drivers/" + runId + "/out", local, infos.get(i).rsync());
        if (!Files.isRegularFile(local.resolve("summary.json"))) {
          String said = (r.err() + r.out()).strip();
          throw SolrscaleException.failed(
              "the driver on "
                  + h.ssh()
                  + " measured nothing (exit "
                  + r.exit()
                  + "): "
                  + (said.isEmpty() ? "no message" : said.lines().reduce((a, b) -> b).orElse("")));
        }
        ssh.agent(
            h,
            Duration.ofSeconds(60),
            "rm",
            infos.get(i).dir(),
            infos.get(i).dir() + "/drivers/" + runId);
        dirs.add(new DriverMerge.Driver(h.ssh(), local));
        starts.add(startAt + infos.get(i).clockOffsetMs());
      }
      return DriverMerge.merge(dirs, starts, out, startAt, p.maxErrorRate());
    } finally {
      hosts.forEach(ssh::close);
    }
  }

  private static Integer[] range(int n) {
    Integer[] out = new Integer[n];
    for (int i = 0; i < n; i++) {
      out[i] = i;
    }
    return out;
  }
}
