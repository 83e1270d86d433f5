package org.solrscale.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.XYChart;
import org.solrscale.spec.CapacityTarget;

/**
 * The report being written: its run, its HTML so far and its figures (charts, also saved as SVG
 * files).
 */
final class Page {
  /** A chart as it appears on the page and in charts/ID.svg. */
  record Figure(String id, String title, String caption, String svg) {}

  /** A chart's worth of lines: title suffix and (label, bench) pairs. */
  record Overlay(String title, List<Map.Entry<String, List<RunModel.Bench>>> series, int total) {
    /** Says so when only some combinations are drawn. */
    String more() {
      return total > series.size()
          ? " Only the first " + series.size() + " of " + total + " combinations are drawn."
          : "";
    }
  }

  /** More lines than this on one chart cannot be told apart. */
  static final int MAX_LINES = 12;

  private final RunModel model;
  private final CapacityTarget target;
  private final StringBuilder html = new StringBuilder(1 << 20);
  private final List<Figure> figures = new ArrayList<>();

  Page(RunModel model, CapacityTarget target) {
    this.model = model;
    this.target = target;
  }

  /** The rate (and objective) a recommendation is asked for, or null. */
  CapacityTarget target() {
    return target;
  }

  RunModel model() {
    return model;
  }

  StringBuilder html() {
    return html;
  }

  List<Figure> figures() {
    return figures;
  }

  void note(String text) {
    html.append("<p class=\"note\">").append(Html.escape(text)).append("</p>\n");
  }

  /** A chart on the page; one XChart could not lay out in time becomes a note instead. */
  void figure(String title, String caption, XYChart chart) {
    String id = "chart-" + (figures.size() + 1) + "-" + slug(title);
    String svg;
    try {
      svg = Charts.svg(chart, id);
    } catch (Charts.NotDrawn e) {
      note(title + ": " + e.getMessage() + "; the figures are in the tables and the step's files.");
      return;
    }
    Figure f = new Figure(id, title, caption, svg);
    figures.add(f);
    html.append("<figure class=\"chart\" id=\"")
        .append(id)
        .append("\">")
        .append(Charts.inline(f.svg(), title))
        .append("<figcaption>")
        .append(Html.escape(caption))
        .append(" <span class=\"file\">charts/")
        .append(id)
        .append(".svg</span></figcaption></figure>\n");
  }

  static String slug(String s) {
    String x = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
    return x.length() > 48 ? x.substring(0, 48) : x;
  }

  /**
   * The lines of overlay charts: one chart per bench step with a line per combination (the first
   * {@link #MAX_LINES}), or, with one combination, one chart with a line per bench step.
   */
  List<Overlay> overlays() {
    List<Overlay> out = new ArrayList<>();
    if (model.combinations().size() == 1) {
      RunModel.Combination c = model.combinations().get(0);
      List<Map.Entry<String, List<RunModel.Bench>>> s = new ArrayList<>();
      for (String key : model.stepKeys()) {
        if (!model.benches(c.id(), key).isEmpty()) {
          s.add(Map.entry(key, model.benches(c.id(), key)));
        }
      }
      if (!s.isEmpty()) {
        out.add(new Overlay(model.label(c), s, s.size()));
      }
      return out;
    }
    for (String key : model.stepKeys()) {
      List<Map.Entry<String, List<RunModel.Bench>>> s = new ArrayList<>();
      for (RunModel.Combination c : model.combinations()) {
        if (!model.benches(c.id(), key).isEmpty()) {
          s.add(Map.entry(model.label(c), model.benches(c.id(), key)));
        }
      }
      if (!s.isEmpty()) {
        out.add(new Overlay(key, s.size() > MAX_LINES ? s.subList(0, MAX_LINES) : s, s.size()));
      }
    }
    return out;
  }
}
