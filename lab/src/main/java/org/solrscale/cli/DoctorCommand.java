package org.solrscale.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.solrscale.cluster.Cluster;
import org.solrscale.diagnose.Doctor;
import org.solrscale.results.DoctorReport;
import org.solrscale.spec.ExitCode;
import org.solrscale.spec.SolrscaleException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** `solrscale doctor`: checks a live SolrCloud against known traps, each with a one-line fix. */
@Command(
    name = "doctor",
    description =
        "Check a SolrCloud's live settings against known traps (ZooKeeper, nodes, collections,"
            + " known Solr defects): evidence and a one-line fix each; exit 1 on an error.")
final class DoctorCommand implements Callable<Integer> {
  @Mixin SolrTarget target;

  @Option(names = "--json", description = "Print the findings and the facts read as JSON.")
  boolean json;

  @Option(
      names = "--window",
      paramLabel = "SECONDS",
      defaultValue = "3",
      description =
          "Sample CPU, GC and update rates over this many seconds before reading the rest"
              + " (default: ${DEFAULT-VALUE}); 0 skips it, and load and update rates are then the"
              + " 1-minute figures, which include what ran before the doctor started.")
  double window;

  @Override
  public Integer call() {
    if (window < 0 || window > 600) {
      throw SolrscaleException.usage(
          "--window " + window + " is not 0..600 seconds; give e.g. --window 3, or 0 for none");
    }
    DoctorReport r = examine(target, Duration.ofMillis(Math.round(window * 1000)));
    if (json) {
      Terminal.printJson(r);
    } else {
      print(r);
    }
    return r.hasErrors() ? ExitCode.FAILED.code() : 0;
  }

  static DoctorReport examine(SolrTarget target, Duration window) {
    if (target.external()) {
      List<String> urls = target.connect().externalNodeUrls();
      return new Doctor(target.describe(), urls, target.zk, target.access(), null, window)
          .examine();
    }
    Cluster cluster = new Cluster(Terminal.home(), target.name, Terminal.progress());
    cluster.requireState();
    List<String> urls = cluster.solrUrls();
    if (urls.isEmpty()) {
      throw SolrscaleException.usage(
          "no Solr node of cluster '" + target.name + "' is running; start it: solrscale up");
    }
    return new Doctor("cluster '" + target.name + "'", urls, null, target.access(), cluster, window)
        .examine();
  }

  static void print(DoctorReport r) {
    JsonNode w = r.facts() == null ? null : r.facts().get("window_s");
    System.out.println(
        r.target()
            + (r.solrVersion() == null ? ", Solr version unread" : ", Solr " + r.solrVersion())
            + (w == null
                ? " (no window sampled: rates are Solr's 1-minute figures)"
                : String.format(
                    Locale.ROOT, " (CPU, GC and update rates over a %.1f s window)", w.asDouble()))
            + ":");
    for (DoctorReport.Finding f : r.findings()) {
      System.out.printf("%-7s %s (%s)%n", f.level(), f.subject(), f.check());
      System.out.println("        " + f.evidence());
      System.out.println("        fix: " + f.fix());
    }
    long errors = r.findings().stream().filter(f -> f.level().equals(DoctorReport.ERROR)).count();
    long warnings =
        r.findings().stream().filter(f -> f.level().equals(DoctorReport.WARNING)).count();
    System.out.printf(
        "%d error(s), %d warning(s), %d note(s)%n",
        errors, warnings, r.findings().size() - errors - warnings);
  }
}
