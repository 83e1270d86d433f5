package org.solrscale.report;

import org.solrscale.results.BenchSummary;

/**
 * The report's section "Errors": errors by kind with a sample message, per combination, repeat and
 * step.
 */
final class ErrorsSection extends Section {
  @Override
  String id() {
    return "errors";
  }

  @Override
  String title() {
    return "Errors";
  }

  @Override
  String nav() {
    return "errors";
  }

  @Override
  void write() {
    Html.Table t =
        new Html.Table("errors", "combination", "repeat", "step", "kind", "count", "sample");
    for (RunModel.Combination c : model.combinations()) {
      for (String key : model.stepKeys()) {
        for (RunModel.Bench b : model.benches(c.id(), key)) {
          BenchSummary.Errors e = b.summary().errors();
          if (e == null || e.byKind() == null) {
            continue;
          }
          e.byKind()
              .forEach(
                  (kind, v) ->
                      t.row(
                          c.id() + " " + model.label(c),
                          b.repeat(),
                          key,
                          kind,
                          v.count(),
                          v.samples() == null || v.samples().isEmpty() ? "" : v.samples().get(0)));
        }
      }
    }
    if (t.isEmpty()) {
      note("No errors: every request of every measured phase succeeded.");
    } else {
      html.append(t.render());
    }
  }
}
