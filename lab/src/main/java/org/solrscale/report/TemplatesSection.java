package org.solrscale.report;

import java.util.List;
import org.solrscale.results.BenchSummary;

/** The report's section "Templates": requests by template: count, errors, latency and mean hits. */
final class TemplatesSection extends Section {
  @Override
  String id() {
    return "templates";
  }

  @Override
  String title() {
    return "Templates";
  }

  @Override
  String nav() {
    return "templates";
  }

  @Override
  void write() {
    boolean any = false;
    for (String key : model.stepKeys()) {
      Html.Table t =
          new Html.Table(
              "templates",
              "combination",
              "template",
              "requests",
              "errors",
              "p50 ms",
              "p99 ms",
              "mean hits");
      for (RunModel.Combination c : model.combinations()) {
        List<RunModel.Bench> b = model.benches(c.id(), key);
        if (b.isEmpty() || b.get(0).summary().templates() == null) {
          continue;
        }
        for (BenchSummary.TemplateRow r : b.get(0).summary().templates()) {
          t.row(
              model.label(c),
              r.template(),
              r.count(),
              r.errors(),
              Html.num(r.p50()),
              Html.num(r.p99()),
              Html.num(r.meanHits()));
        }
      }
      if (!t.isEmpty()) {
        any = true;
        html.append("<h3>")
            .append(Html.escape("Step " + key))
            .append(" (first repeat)</h3>\n")
            .append(t.render());
      }
    }
    if (!any) {
      note("No per-template figures recorded.");
    }
  }
}
