package org.solrscale.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import org.solrscale.results.RunDir;
import org.solrscale.spec.CapacityTarget;
import org.solrscale.spec.SolrscaleException;

/**
 * `solrscale report DIR`: one self-contained HTML file (inline CSS and SVG, no script, font or
 * image from elsewhere) made from a run directory, plus every chart as an SVG file in charts/. The
 * page is its sections, in the order of {@link #sections()}: each a class of its own.
 */
public final class Report {
  /**
   * The sections, in page order; a section that has nothing for a run is left out (and its link).
   */
  static List<Section> sections() {
    return List.of(
        new FindingsSection(),
        new ResultsSection(),
        new VersionsSection(),
        new CapacitySection(),
        new ChaosSection(),
        new NetworkSection(),
        new DistributeSection(),
        new SweepSection(),
        new LatencySection(),
        new ReplaySection(),
        new HitsSection(),
        new KneeSection(),
        new ColdStartSection(),
        new TimelinesSection(),
        new TemplatesSection(),
        new ErrorsSection(),
        new OtherStepsSection(),
        new DiagnosisSection(),
        new TelemetrySection(),
        new EnvironmentSection());
  }

  private final Page page;

  private Report(RunModel model, CapacityTarget target) {
    this.page = new Page(model, target);
  }

  /** Writes DIR/report.html and DIR/charts/*.svg; returns the report's path. */
  public static Path write(Path runDir) {
    return write(runDir, runDir.resolve("report.html"));
  }

  /** Writes the report to out and its charts to charts/ beside it; returns out. */
  public static Path write(Path runDir, Path out) {
    return write(runDir, out, null);
  }

  /**
   * Writes the report to out and its charts to charts/ beside it, recommending a topology for
   * target (null: the capacity steps' own target, if any); returns out.
   */
  public static Path write(Path runDir, Path out, CapacityTarget target) {
    Report r = new Report(new RunModel(RunDir.open(runDir)), target);
    r.build();
    Path dir = out.toAbsolutePath().getParent();
    try {
      Path charts = dir.resolve("charts");
      Files.createDirectories(charts);
      for (Page.Figure f : r.page.figures()) {
        Files.writeString(charts.resolve(f.id() + ".svg"), f.svg(), StandardCharsets.UTF_8);
      }
      Path tmp = dir.resolve(out.getFileName() + ".tmp");
      Files.writeString(tmp, r.page.html(), StandardCharsets.UTF_8);
      Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot write the report to " + dir + ": " + e.getMessage());
    }
    return out;
  }

  /** Ids of the charts, in page order (tests check each is on the page). */
  static List<String> chartIds(Path runDir) {
    Report r = new Report(new RunModel(RunDir.open(runDir)), null);
    r.build();
    return r.page.figures().stream().map(Page.Figure::id).toList();
  }

  private void build() {
    RunModel model = page.model();
    StringBuilder html = page.html();
    List<Section> shown = sections().stream().map(s -> s.on(page)).filter(Section::shown).toList();
    String name = model.run().name();
    html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
        .append(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                + "style-src 'unsafe-inline'; img-src data:\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>")
        .append(Html.escape("solrscale report: " + name))
        .append("</title>\n<style>")
        .append(css())
        .append("</style></head>\n<body>\n");
    header(shown);
    for (Section s : shown) {
      html.append("<section id=\"")
          .append(s.id())
          .append("\"><h2>")
          .append(Html.escape(s.title()))
          .append("</h2>\n");
      s.write();
      html.append("</section>\n");
    }
    html.append("<footer>Made by <code>solrscale report ")
        .append(Html.escape(model.run().path()))
        .append(
            "</code>. Every chart is also in <code>charts/</code> as SVG.</footer>\n</body></html>\n");
  }

  private void header(List<Section> shown) {
    RunModel model = page.model();
    StringBuilder html = page.html();
    int repeats = model.combinations().stream().mapToInt(c -> c.repeats().size()).max().orElse(0);
    html.append("<header><h1>")
        .append(Html.escape(model.run().name()))
        .append("</h1><p>")
        .append(Html.escape(model.run().path().toAbsolutePath().normalize()))
        .append(" &middot; ")
        .append(model.combinations().size())
        .append(model.combinations().size() == 1 ? " combination" : " combinations")
        .append(" &times; up to ")
        .append(repeats)
        .append(repeats == 1 ? " repeat" : " repeats");
    if (!model.swept().isEmpty()) {
      html.append(" &middot; swept: ").append(Html.escape(String.join(", ", model.swept())));
    }
    html.append("</p><nav>");
    for (Section s : shown) {
      if (s.nav() != null) {
        html.append("<a href=\"#")
            .append(s.id())
            .append("\">")
            .append(Html.escape(s.nav()))
            .append("</a> ");
      }
    }
    html.append("</nav></header>\n");
  }

  /** Combinations ordered by one parameter: as numbers when they are, else as they first appear. */
  static Comparator<RunModel.Combination> byParam(String param, List<RunModel.Combination> all) {
    List<String> order =
        all.stream().map(c -> String.valueOf(c.params().get(param))).distinct().toList();
    return (a, b) -> {
      Object x = a.params().get(param);
      Object y = b.params().get(param);
      Double dx = number(x);
      Double dy = number(y);
      if (dx != null && dy != null) {
        return Double.compare(dx, dy);
      }
      return Integer.compare(order.indexOf(String.valueOf(x)), order.indexOf(String.valueOf(y)));
    };
  }

  static Double number(Object o) {
    if (o instanceof Number n) {
      return n.doubleValue();
    }
    try {
      return o == null ? null : Double.parseDouble(o.toString());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static String css() {
    return """
        body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#222;
          margin:0 auto;max-width:1180px;padding:0 20px 40px}
        header{border-bottom:1px solid #ddd;margin-bottom:8px}
        h1{font-size:26px;margin:22px 0 4px}h2{font-size:20px;margin:28px 0 8px;border-bottom:1px solid #eee}
        h3{font-size:16px;margin:18px 0 6px}
        nav a{margin-right:10px;color:#0072B2;text-decoration:none}
        table{border-collapse:collapse;margin:6px 0 14px;font-size:13px}
        th,td{padding:3px 9px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
        th{background:#f6f6f6;font-weight:600}
        td small{color:#777}
        table.results td:nth-child(n+3),table.templates td:nth-child(n+3){text-align:right;font-variant-numeric:tabular-nums}
        figure.chart{display:inline-block;width:48%;min-width:420px;margin:6px 1% 14px 0;vertical-align:top}
        figure.chart svg{width:100%;height:auto;display:block}
        figcaption{font-size:12px;color:#555}
        .file{color:#999}
        .note{color:#555;font-style:italic}
        .sig,.worse{color:#b3261e;font-weight:600}.better{color:#1b7f3b;font-weight:600}.noise{color:#777}
        ul.findings li{margin:4px 0}
        pre{background:#f6f6f6;padding:8px;overflow:auto;font-size:12px}
        footer{margin-top:30px;color:#888;font-size:12px}
        @media (max-width:900px){figure.chart{width:100%;min-width:0}}
        """;
  }
}
