package org.solrscale.report;

import java.util.Locale;

/**
 * The report's section "Findings": the findings computed from the data: the best combination for
 * each target, the effect of each swept parameter, what was left out and why.
 */
final class FindingsSection extends Section {
  @Override
  String id() {
    return "findings";
  }

  @Override
  String title() {
    return "Findings";
  }

  @Override
  String nav() {
    return "findings";
  }

  @Override
  void write() {
    Findings f = Findings.of(model);
    html.append("<ul class=\"findings\">\n");
    for (String n : f.notes) {
      html.append("<li>").append(n).append("</li>\n");
    }
    for (String n : CapacityStudy.of(model, target()).findings) {
      html.append("<li>").append(Html.escape(n)).append("</li>\n");
    }
    html.append("</ul>\n");
    if (!f.effects.isEmpty()) {
      html.append("<h3>Effect of each parameter (the others fixed)</h3>\n");
      Html.Table t =
          new Html.Table(
              "effects", "step", "parameter", "change", "with", "achieved QPS", "p50", "p99");
      for (Findings.Effect e : f.effects) {
        t.rawRow(
            Html.escape(e.step()),
            Html.escape(e.param()),
            Html.escape(e.from() + " \u2192 " + e.to()),
            Html.escape(e.at()),
            effect(e.deltas().get(Metric.QPS)),
            effect(e.deltas().get(Metric.P50)),
            effect(e.deltas().get(Metric.P99)));
      }
      html.append(t.render());
      if (f.effects.size() >= Findings.MAX_EFFECTS) {
        note("Only the first " + Findings.MAX_EFFECTS + " changes are shown.");
      }
    }
  }

  private static String effect(Comparison.MetricDelta d) {
    String cls =
        d.regression()
            ? "worse"
            : d.verdict().equals("no significant difference") || d.verdict().equals("not tested")
                ? "noise"
                : "better";
    String text = Html.pct(d.deltaPct()) + (cls.equals("noise") ? " (noise)" : "");
    return "<span class=\""
        + cls
        + "\" title=\""
        + Html.escape(
            d.verdict() + (d.p() == null ? "" : String.format(Locale.ROOT, ", p = %.3g", d.p())))
        + "\">"
        + Html.escape(text)
        + "</span>";
  }
}
