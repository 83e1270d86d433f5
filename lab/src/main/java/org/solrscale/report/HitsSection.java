package org.solrscale.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.solrscale.results.BenchSummary;

/**
 * The report's section "Latency against hits": latency against the number of hits, requests grouped
 * by numFound in powers of two.
 */
final class HitsSection extends Section {
  @Override
  String id() {
    return "hits";
  }

  @Override
  String title() {
    return "Latency against hits";
  }

  @Override
  String nav() {
    return "hits";
  }

  @Override
  void write() {
    boolean any = false;
    for (Page.Overlay o : overlays()) {
      Map<Long, String> buckets = new TreeMap<>();
      for (var s : o.series()) {
        BenchSummary b = s.getValue().get(0).summary();
        if (b.latencyByHits() != null) {
          b.latencyByHits()
              .forEach(
                  h ->
                      buckets.put(
                          h.min(),
                          h.min() == h.max() ? String.valueOf(h.min()) : h.min() + "-" + h.max()));
        }
      }
      if (buckets.isEmpty()) {
        continue;
      }
      List<Long> mins = new ArrayList<>(buckets.keySet());
      List<Charts.Curve> curves = new ArrayList<>();
      boolean withP99 = o.series().size() <= 3;
      for (var s : o.series()) {
        BenchSummary b = s.getValue().get(0).summary();
        if (b.latencyByHits() == null || b.latencyByHits().isEmpty()) {
          continue;
        }
        double[] x = b.latencyByHits().stream().mapToDouble(h -> mins.indexOf(h.min())).toArray();
        curves.add(
            new Charts.Curve(
                s.getKey() + (withP99 ? " p50" : ""),
                x,
                b.latencyByHits().stream().mapToDouble(BenchSummary.HitBucket::p50).toArray()));
        if (withP99) {
          curves.add(
              new Charts.Curve(
                  s.getKey() + " p99",
                  x,
                  b.latencyByHits().stream().mapToDouble(BenchSummary.HitBucket::p99).toArray(),
                  null,
                  true));
        }
      }
      any = true;
      String title = "Latency against number of hits (" + o.title() + ")";
      figure(
          title,
          "Requests grouped by numFound in powers of two; first repeat of each." + o.more(),
          Charts.categories(
              title, "hits (numFound)", "latency (ms)", new ArrayList<>(buckets.values()), curves));
    }
    if (!any) {
      note("No latency by hits recorded (the summaries have no latency_by_hits).");
    }
  }
}
