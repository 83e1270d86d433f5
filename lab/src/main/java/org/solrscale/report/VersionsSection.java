package org.solrscale.report;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.solrscale.results.BenchSummary;
import org.solrscale.spec.SolrscaleException;

/**
 * The report's section "Versions side by side", for a run whose matrix sweeps the Solr version:
 * combinations that differ only in the version, each version judged against the first as {@code
 * compare DIR --by solr_version} judges them (indexing, and every metric of every bench step), and
 * the latency of each template (query kind) per version.
 */
final class VersionsSection extends Section {
  @Override
  String id() {
    return "versions";
  }

  @Override
  String title() {
    return "Versions side by side";
  }

  @Override
  String nav() {
    return "versions";
  }

  /** The swept parameter that is the Solr version, or null. */
  private String versionParam() {
    return model.swept().stream()
        .filter(p -> RunModel.shortName(p).equals("solr_version"))
        .findFirst()
        .orElse(null);
  }

  @Override
  boolean shown() {
    return versionParam() != null;
  }

  @Override
  void write() {
    String param = versionParam();
    List<String> versions = Compare.values(model, param);
    Comparison c;
    try {
      c = Compare.byParam(model, model.run().path().getFileName().toString(), param);
    } catch (SolrscaleException e) {
      note(e.getMessage());
      return;
    }
    html.append("<p>")
        .append(
            Html.escape(
                String.format(
                    Locale.ROOT,
                    "Each Solr version against %s, in the combinations that differ only in the"
                        + " version (the same corpus, queries, topology and repeats): what"
                        + " `solrscale compare %s --by solr_version` prints. A difference counts"
                        + " when p < %.2f (Mann-Whitney U) and it exceeds %.0f %%.",
                    versions.get(0),
                    model.run().path(),
                    c.alpha(),
                    c.thresholdPct())))
        .append("</p>\n");
    for (Comparison.StepDelta s : c.steps()) {
      html.append("<h3>")
          .append(
              Html.escape(
                  s.label()
                      + ", step "
                      + s.step()
                      + " (samples: "
                      + s.samples()
                      + "; repeats: "
                      + s.repeatsA()
                      + " and "
                      + s.repeatsB()
                      + ")"))
          .append("</h3>\n");
      Html.Table t =
          new Html.Table(
              "versions",
              "metric",
              side(s.a(), param),
              side(s.b(), param),
              "change",
              "95 % CI",
              "p",
              "verdict");
      for (Comparison.MetricDelta m : s.metrics()) {
        t.row(
            m.metric() + (m.unit().isEmpty() ? "" : " (" + m.unit() + ")"),
            m.a() == null ? "-" : Html.num(m.a()),
            m.b() == null ? "-" : Html.num(m.b()),
            Html.pct(m.deltaPct()),
            m.ciLowPct() == null ? "-" : Html.pct(m.ciLowPct()) + " .. " + Html.pct(m.ciHighPct()),
            m.p() == null ? "-" : String.format(Locale.ROOT, "%.3g", m.p()),
            m.verdict() + (m.note() == null ? "" : " (" + m.note() + ")"));
      }
      html.append(t.render());
      templates(s, param);
    }
    for (String x : c.onlyInA()) {
      note("Not compared: " + x);
    }
  }

  /** A side's column: its version and combination, e.g. "9.10.1 (c003)". */
  private String side(String label, String param) {
    String id = label.substring(label.lastIndexOf('#') + 1);
    RunModel.Combination c = model.combination(id);
    return (c == null ? "?" : String.valueOf(c.params().get(param))) + " (" + id + ")";
  }

  /**
   * Per template (query kind), p50 and p99 on each side: the medians of the repeats' figures.
   * Informative only: the driver records no per-second values per template to test.
   */
  private void templates(Comparison.StepDelta s, String param) {
    String idA = s.a().substring(s.a().lastIndexOf('#') + 1);
    String idB = s.b().substring(s.b().lastIndexOf('#') + 1);
    List<RunModel.Bench> a = model.benches(idA, s.step());
    List<RunModel.Bench> b = model.benches(idB, s.step());
    Set<String> names = new LinkedHashSet<>();
    a.forEach(x -> names.addAll(templateNames(x.summary())));
    if (names.size() < 2) {
      return; // one template: the step's own figures say it all
    }
    Html.Table t =
        new Html.Table(
            "versions-templates",
            "template",
            "p50 ms " + side(s.a(), param),
            "p50 ms " + side(s.b(), param),
            "p99 ms " + side(s.a(), param),
            "p99 ms " + side(s.b(), param));
    for (String name : names) {
      t.row(
          name,
          Html.num(median(a, name, true)),
          Html.num(median(b, name, true)),
          Html.num(median(a, name, false)),
          Html.num(median(b, name, false)));
    }
    html.append("<p>Per template: medians of the repeats' figures (not tested).</p>\n")
        .append(t.render());
  }

  private static List<String> templateNames(BenchSummary s) {
    return s.templates() == null
        ? List.of()
        : s.templates().stream().map(BenchSummary.TemplateRow::template).toList();
  }

  private static double median(List<RunModel.Bench> benches, String template, boolean p50) {
    List<Double> values = new ArrayList<>();
    for (RunModel.Bench x : benches) {
      if (x.summary().templates() == null) {
        continue;
      }
      x.summary().templates().stream()
          .filter(r -> r.template().equals(template) && r.count() > 0)
          .forEach(r -> values.add(p50 ? r.p50() : r.p99()));
    }
    if (values.isEmpty()) {
      return Double.NaN;
    }
    double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}
