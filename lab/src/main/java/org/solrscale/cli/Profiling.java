package org.solrscale.cli;

import java.nio.file.Path;
import org.solrscale.cluster.Cluster;
import org.solrscale.diagnose.Profiler;
import org.solrscale.results.Diagnosis;
import org.solrscale.spec.SolrscaleException;

/** --profile on bench, index and chaos: where it may run, and what it prints afterwards. */
final class Profiling {
  private Profiling() {}

  /**
   * The recordings for a command's work, started; null without --profile. Only the JVMs of a
   * cluster solrscale started can be recorded, and the files need the command's --out.
   */
  static Profiler start(boolean profile, SolrTarget target, Path out) {
    if (!profile) {
      return null;
    }
    if (target.external()) {
      throw SolrscaleException.usage(
          "--profile records the Solr JVMs of a cluster solrscale started (--name); it cannot"
              + " reach those of --zk or --url");
    }
    if (out == null) {
      throw SolrscaleException.usage(
          "--profile needs --out DIR: the recordings and what is made of them go there");
    }
    Cluster cluster = new Cluster(Terminal.home(), target.name, Terminal.progress());
    cluster.requireState();
    return Profiler.start(cluster, out, Terminal.progress());
  }

  /** The findings, and where the files are. */
  static void print(Diagnosis d, Path out) {
    System.out.println("profile (" + out.resolve("profile") + "):");
    d.findings().forEach(f -> System.out.println("  " + f));
  }
}
