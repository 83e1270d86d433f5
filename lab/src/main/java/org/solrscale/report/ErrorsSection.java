package org.solrscale.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.XYChart;
import org.solrscale.results.ChaosVerdict;
import org.solrscale.results.FaultRecord;
import org.solrscale.results.BenchSummary;
import org.solrscale.results.CombinationRun;
import org.solrscale.results.RunDir;
import org.solrscale.results.StepResult;
import org.solrscale.results.TelemetrySample;
import org.solrscale.results.TimelineRow;
import org.solrscale.spec.SolrscaleException;

/** The report's section "Errors": errors by kind with a sample message, per combination, repeat and step. */
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
    Html.Table t = new Html.Table("errors", "combination", "repeat", "step", "kind", "count", "sample");
    for (RunModel.Combination c : model.combinations()) {
      for (String key : model.stepKeys()) {
        for (RunModel.Bench b : model.benches(c.id(), key)) {
          BenchSummary.Errors e = b.summary().errors();
          if (e == null || e.byKind() == null) {
            continue;
          }
          e.byKind().forEach((kind, v) -> t.row(c.id() + " " + model.label(c), b.repeat(), key, kind,
              v.count(), v.samples() == null || v.samples().isEmpty() ? "" : v.samples().get(0)));
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
