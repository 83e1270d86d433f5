package org.solrscale.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.List;
import org.solrscale.cluster.Access;
import org.solrscale.results.BenchSummary;
import org.solrscale.results.LineTail;
import org.solrscale.spec.SolrscaleException;

/**
 * One driver of a bench split over hosts ({@link Drivers}), on its host: reads its share of the
 * request from standard input (one line of JSON, then the password when it runs as a user), and
 * runs it as `solrscale bench` would here.
 */
public final class BenchDriver {
  /** The hidden command a driver host runs. */
  public static final String COMMAND = "bench-driver";

  /**
   * What starts each line of its interval log a driver prints as it writes it, for the coordinator
   * to merge while the run goes on ({@link MergedLog}).
   */
  public static final String LOG_LINE = "hlog ";

  /** How often a driver looks for new lines of its interval log. */
  static final long MIRROR_MS = 250;

  private BenchDriver() {}

  /** The request read from {@code in}, its queries read and probed, and its run. */
  public static BenchSummary drive(BufferedReader in, String user) throws InterruptedException {
    BenchRequest r = BenchRequest.fromJson(line(in, "a bench request (one line of JSON)"));
    Access access = Access.NONE;
    if (user != null) {
      String password = line(in, "the password of --user " + user).strip();
      if (password.isEmpty()) {
        throw SolrscaleException.usage("the password of --user " + user + " is empty");
      }
      access = Access.basic(user, password);
    }
    Workload w = BenchPlan.workload(r);
    BenchPlan.probe(r, w, access);
    Thread mirror = null;
    LineTail log = r.out() == null ? null : new LineTail(r.out().resolve("latency.hlog"));
    if (log != null) {
      mirror = new Thread(() -> mirror(log), "solrscale-log-mirror");
      mirror.setDaemon(true);
      mirror.start();
    }
    try {
      return BenchPlan.run(r, w, access, i -> {});
    } finally {
      if (mirror != null) {
        mirror.interrupt();
        mirror.join();
        print(log); // the lines written after its last look
      }
    }
  }

  /** Prints the log's new lines every {@link #MIRROR_MS} until interrupted. */
  private static void mirror(LineTail log) {
    while (!Thread.currentThread().isInterrupted()) {
      print(log);
      try {
        Thread.sleep(MIRROR_MS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private static void print(LineTail log) {
    try {
      List<String> lines = log.poll();
      for (String l : lines) {
        System.out.println(LOG_LINE + l);
      }
      if (!lines.isEmpty()) {
        System.out.flush();
      }
    } catch (IOException e) {
      // the log being made: looked at again next time
    }
  }

  private static String line(BufferedReader in, String what) {
    try {
      String line = in.readLine();
      if (line == null) {
        throw SolrscaleException.usage(COMMAND + " reads " + what + " from standard input");
      }
      return line;
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot read " + what + ": " + e.getMessage());
    }
  }
}
