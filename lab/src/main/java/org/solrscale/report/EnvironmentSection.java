package org.solrscale.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.solrscale.results.CombinationRun;
import org.solrscale.results.DoctorReport;
import org.solrscale.results.RanOn;
import org.solrscale.results.RunDir;
import org.solrscale.results.RunEnvironment;

/**
 * The report's section "Environment": what the run ran on: machine, Java, versions, each node's
 * heap, collector and flags, and the scenario.
 */
final class EnvironmentSection extends Section {
  @Override
  String id() {
    return "environment";
  }

  @Override
  String title() {
    return "Environment";
  }

  @Override
  String nav() {
    return "environment";
  }

  @Override
  void write() {
    var env = model.run().environment();
    if (env.isEmpty()) {
      note("No environment.json in this run.");
    } else {
      Html.Table t = new Html.Table("env", "what", "value");
      // every field as the file names it, in its order; the nodes get a table of their own
      RunDir.JSON
          .valueToTree(env.get())
          .fields()
          .forEachRemaining(
              e -> {
                JsonNode v = e.getValue();
                if (e.getKey().equals("nodes") || v.isNull()) {
                  return;
                }
                if (e.getKey().equals("memory_bytes") && v.isNumber()) {
                  t.row(
                      "memory", String.format(Locale.ROOT, "%.1f GiB", v.asDouble() / (1L << 30)));
                } else if (v.isValueNode()) {
                  t.row(e.getKey().replace('_', ' '), v.asText());
                } else {
                  t.row(e.getKey().replace('_', ' '), v.toString());
                }
              });
      html.append(t.render());
      nodes(env.get().nodes());
    }
    ranOn(model.run().results().combinations());
    doctor();
    Path scenario = model.run().path().resolve("scenario.yaml");
    if (Files.isRegularFile(scenario)) {
      try (InputStream in = Files.newInputStream(scenario)) {
        html.append("<details><summary>scenario.yaml</summary><pre>")
            .append(Html.escape(new String(in.readAllBytes(), StandardCharsets.UTF_8)))
            .append("</pre></details>\n");
      } catch (IOException e) {
        note("scenario.yaml cannot be read: " + e.getMessage());
      }
    }
  }

  /** Per node its JVM, heap, collector and notable flags; the full command lines folded away. */
  private void nodes(List<RunEnvironment.Node> nodes) {
    if (nodes.isEmpty()) {
      return;
    }
    Html.Table t = new Html.Table("nodes", "node", "role", "java", "heap", "GC", "flags");
    StringBuilder full = new StringBuilder();
    for (RunEnvironment.Node n : nodes) {
      List<String> args = n.jvmArgs();
      JvmFlags f = JvmFlags.of(args);
      t.row(
          n.id(),
          n.role() == null ? "" : n.role(),
          f.java(),
          f.heap(),
          f.gc(),
          String.join(" ", f.notable()));
      full.append(n.id()).append(":\n  ").append(String.join(" \\\n    ", args)).append("\n\n");
    }
    html.append(t.render());
    html.append("<details><summary>Full command lines</summary><pre>")
        .append(Html.escape(full.toString().strip()))
        .append("</pre></details>\n");
  }

  /**
   * Where each repeat ran (its {@link RanOn}: boot, revision, start, CPU score), with a warning
   * when they ran on more than one machine, boot or revision; nothing for runs of an older
   * solrscale. (environment.json describes the session that ran the run's last part.)
   */
  private void ranOn(List<CombinationRun> repeats) {
    List<CombinationRun> known = repeats.stream().filter(c -> c.ranOn() != null).toList();
    if (known.isEmpty()) {
      return;
    }
    html.append("<h3>Where the repeats ran</h3>\n");
    String mixed = RanOn.mixed(repeats);
    if (mixed != null) {
      html.append("<p class=\"note\"><span class=\"sig\">")
          .append(Html.escape(Html.capitalized(mixed)))
          .append(".</span></p>\n");
    } else {
      RanOn first = known.get(0).ranOn();
      note(
          "All "
              + known.size()
              + " repeats ran on one boot of one machine ("
              + RanOn.shortId(first.bootId())
              + ") with one solrscale revision ("
              + RanOn.shortId(first.gitRevision())
              + "): environment.json describes them all.");
    }
    Html.Table t =
        new Html.Table("ran-on", "repeat", "status", "started", "boot", "revision", "CPU score");
    for (CombinationRun c : known) {
      RanOn r = c.ranOn();
      t.row(
          c.id() + " r" + c.repeat(),
          c.status() == null ? CombinationRun.DONE : c.status(),
          r.started() == null ? "" : r.started(),
          RanOn.shortId(r.bootId()),
          RanOn.shortId(r.gitRevision()),
          r.cpuScore() == null ? "" : Html.num(r.cpuScore()));
    }
    html.append("<details><summary>")
        .append(known.size())
        .append(" repeats: boot, revision, start and CPU score (MiB/s of SHA-256 on one core,")
        .append(" measured as each began)</summary>")
        .append(t.render())
        .append("</details>\n");
  }

  /** The doctor's findings on the cluster as the run started (doctor.json). */
  private void doctor() {
    DoctorReport.read(model.run().path())
        .ifPresent(
            d -> {
              html.append("<h3>Doctor</h3>\n");
              if (d.findings().isEmpty()) {
                note("solrscale doctor found nothing to warn about in " + d.target() + ".");
                return;
              }
              Html.Table t = new Html.Table("doctor", "level", "subject", "evidence", "fix");
              d.findings()
                  .forEach(
                      f ->
                          t.row(
                              f.level(),
                              f.subject() + " (" + f.check() + ")",
                              f.evidence(),
                              f.fix()));
              html.append(t.render());
              note(
                  "What solrscale doctor found in "
                      + d.target()
                      + " as the run started: live settings checked against known traps"
                      + " (docs/diagnose.md).");
            });
  }
}
