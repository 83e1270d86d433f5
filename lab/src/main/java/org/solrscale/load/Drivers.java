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
import org.solrscale.cluster.Remote;
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

  /**
   * Runs {@code r} on {@code hosts}, each its {@link BenchRequest#share}, and writes the merged run
   * into the request's {@code out}; returns the merged summary.
   */
  public static BenchSummary run(
      SolrscaleHome home,
      BenchRequest r,
      List<HostSpec> hosts,
      Access access,
      Consumer<String> progress)
      throws IOException {
    if (r.threads() != null && r.threads() < hosts.size()) {
      throw SolrscaleException.usage(
          "--threads " + r.threads() + " is fewer than the " + hosts.size() + " drivers");
    }
    if (r.attribute() != null) {
      throw SolrscaleException.usage(
          "--attribute samples on one driver: leave out --drivers for it (or attribute from this"
              + " machine)");
    }
    if (access.hasTruststore()) {
      throw SolrscaleException.usage(
          "bench --drivers does not speak TLS with its own trust store yet: run the load from this"
              + " machine, or against a cluster without --tls");
    }
    Path jar = SolrscaleJar.path("--drivers");
    Path out = r.out();
    Files.createDirectories(out);
    Ssh ssh = new Ssh(home, home.dir().resolve("drivers"));
    String runId = "run-" + System.currentTimeMillis();
    MergedLog live = null;
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
      List<String> requests = new ArrayList<>();
      List<Long> starts = new ArrayList<>();
      long startAt = System.currentTimeMillis() + LEAD.toMillis();
      for (int i = 0; i < hosts.size(); i++) {
        HostSpec h = hosts.get(i);
        HostProbe.Info info = infos.get(i);
        Ssh.Put put = ssh.putOnce(h, info.dir(), jar, info.rsync());
        String dir = info.dir() + "/drivers/" + runId;
        List<BenchRequest.Mix> mix = new ArrayList<>();
        for (BenchRequest.Mix m : r.queries()) {
          Ssh.Put qf = ssh.putOnce(h, info.dir(), m.file(), info.rsync());
          mix.add(new BenchRequest.Mix(Path.of(qf.path()), m.weight()));
        }
        Path replay =
            r.replay() == null
                ? null
                : Path.of(ssh.putOnce(h, info.dir(), r.replay().file(), info.rsync()).path());
        starts.add(startAt + info.clockOffsetMs());
        BenchRequest share =
            r.share(i, hosts.size(), mix, replay, Path.of(dir + "/out"), starts.get(i));
        progress.accept(
            h.ssh()
                + ": driver "
                + (i + 1)
                + " of "
                + hosts.size()
                + ", "
                + share.load()
                + (put.bytes() > 0
                    ? String.format(", solrscale's jar copied (%,d bytes)", put.bytes())
                    : ""));
        // the request goes through stdin as one line of JSON, the password (never in ps) after it
        List<String> cmd =
            new ArrayList<>(List.of(info.java(), "-jar", put.path(), BenchDriver.COMMAND));
        if (access.authenticated()) {
          cmd.addAll(List.of("--user", access.user()));
        }
        commands.add(cmd);
        requests.add(
            share.toJson() + "\n" + (access.authenticated() ? access.secretForStdin() + "\n" : ""));
      }
      Duration limit = r.runTime().plus(LEAD).plusMinutes(2);
      // each driver prints its interval log as it writes it: merged here second by second, so
      // that the run can be watched while it goes (the drivers' own logs, fetched after, decide)
      live = new MergedLog(out.resolve("latency.hlog"), starts, startAt);
      MergedLog merged = live;
      List<Remote.Result> results =
          Parallel.map(
              List.of(range(hosts.size())),
              i -> {
                Remote.Result res =
                    ssh.run(
                        hosts.get(i),
                        commands.get(i),
                        requests.get(i),
                        limit,
                        line -> {
                          if (!line.startsWith(BenchDriver.LOG_LINE)) {
                            return false;
                          }
                          merged.line(i, line.substring(BenchDriver.LOG_LINE.length()));
                          return true;
                        });
                if (res.exit() == 0 || res.exit() == 1) {
                  merged.end(i); // its log came whole: the others need not wait for it
                }
                return res;
              });
      List<DriverMerge.Driver> dirs = new ArrayList<>();
      for (int i = 0; i < hosts.size(); i++) {
        HostSpec h = hosts.get(i);
        Remote.Result result = results.get(i);
        if (result.exit() != 0 && result.exit() != 1) { // 1: it ran but measured nothing worth it
          throw ssh.failure(h, result, "the driver");
        }
        Path local = out.resolve("drivers").resolve(h.ssh());
        ssh.fetch(
            h, infos.get(i).dir() + "/drivers/" + runId + "/out", local, infos.get(i).rsync());
        if (!Files.isRegularFile(local.resolve("summary.json"))) {
          String said = (result.err() + result.out()).strip();
          throw SolrscaleException.failed(
              "the driver on "
                  + h.ssh()
                  + " measured nothing (exit "
                  + result.exit()
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
      }
      return DriverMerge.merge(dirs, starts, out, startAt, r.maxErrorRate(), live);
    } catch (RuntimeException | IOException e) {
      if (live != null) {
        live.close(); // what came so far stays readable
      }
      throw e;
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
