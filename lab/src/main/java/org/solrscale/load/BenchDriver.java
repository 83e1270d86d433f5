package org.solrscale.load;

import java.io.BufferedReader;
import java.io.IOException;
import org.solrscale.cluster.Access;
import org.solrscale.results.BenchSummary;
import org.solrscale.spec.SolrscaleException;

/**
 * One driver of a bench split over hosts ({@link Drivers}), on its host: reads its share of the
 * request from standard input (one line of JSON, then the password when it runs as a user), and
 * runs it as `solrscale bench` would here.
 */
public final class BenchDriver {
  /** The hidden command a driver host runs. */
  public static final String COMMAND = "bench-driver";

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
    return BenchPlan.run(r, w, access, i -> {});
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
