package org.solrscale.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The report's charts, drawn with XChart and written as SVG by its VectorGraphicsEncoder
 * (VectorGraphics2D). Text is drawn as outlines, so the SVG needs no font.
 */
final class Charts {
  static final int WIDTH = 760;
  static final int HEIGHT = 400;

  /** Okabe-Ito, readable with colour blindness, then a few more. */
  static final Color[] COLORS = {
    new Color(0x0072B2),
    new Color(0xD55E00),
    new Color(0x009E73),
    new Color(0xCC79A7),
    new Color(0xE69F00),
    new Color(0x56B4E9),
    new Color(0x000000),
    new Color(0x8C564B),
    new Color(0x7F7F7F),
    new Color(0xBCBD22),
    new Color(0x17BECF),
    new Color(0x9467BD)
  };

  static final Color WARMUP = new Color(225, 225, 225);
  static final Color FAULT = new Color(250, 205, 200);
  private static final Pattern LONG_DECIMAL = Pattern.compile("(\\d\\.\\d\\d)\\d+");
  private static final Pattern PROLOG =
      Pattern.compile("^(<\\?xml[^>]*>\\s*)?(<!DOCTYPE[^>]*>\\s*)?");
  private static final Pattern CLIP = Pattern.compile("clip(\\d+)");

  static {
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
  }

  /** One line of a chart; err (may be null) draws symmetric error bars. */
  record Curve(String label, double[] x, double[] y, double[] err, boolean dashed) {
    Curve(String label, double[] x, double[] y) {
      this(label, x, y, null, false);
    }
  }

  private Charts() {}

  static XYChart base(String title, String xTitle, String yTitle) {
    XYChart c =
        new XYChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title(title)
            .xAxisTitle(xTitle)
            .yAxisTitle(yTitle)
            .build();
    var s = c.getStyler();
    s.setChartBackgroundColor(Color.WHITE);
    s.setPlotBackgroundColor(Color.WHITE);
    s.setPlotBorderVisible(false);
    s.setPlotGridLinesColor(new Color(230, 230, 230));
    s.setPlotGridLinesStroke(new BasicStroke(1f));
    s.setChartTitleBoxVisible(false);
    s.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
    s.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    s.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    s.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    s.setLegendBorderColor(Color.WHITE);
    s.setLegendPosition(Styler.LegendPosition.OutsideS);
    s.setLegendLayout(Styler.LegendLayout.Horizontal);
    s.setAxisTickMarksColor(new Color(150, 150, 150));
    s.setSeriesColors(COLORS);
    s.setMarkerSize(6);
    s.setErrorBarsColorSeriesColor(true);
    s.setLocale(Locale.ROOT);
    s.setAntiAlias(true);
    return c;
  }

  static XYSeries add(XYChart c, Curve curve, int index) {
    XYSeries s =
        curve.err() == null
            ? c.addSeries(curve.label(), curve.x(), curve.y())
            : c.addSeries(curve.label(), curve.x(), curve.y(), curve.err());
    s.setLineColor(COLORS[index % COLORS.length]);
    s.setMarkerColor(COLORS[index % COLORS.length]);
    s.setLineWidth(2f);
    if (curve.dashed()) {
      s.setLineStyle(
          new BasicStroke(
              1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {6f, 4f}, 0f));
    }
    if (curve.x().length > 40) {
      s.setMarker(SeriesMarkers.NONE);
    } else {
      s.setMarker(SeriesMarkers.CIRCLE);
    }
    return s;
  }

  /**
   * Points (x, y) without lines, on logarithmic axes when {@code log}, with the diagonal y = x
   * dashed for reference.
   */
  static XYChart scatter(
      String title, String xTitle, String yTitle, String label, double[] x, double[] y) {
    XYChart c = base(title, xTitle, yTitle);
    XYSeries points = c.addSeries(label, x, y);
    points.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    points.setMarker(SeriesMarkers.CIRCLE);
    points.setMarkerColor(COLORS[0]);
    double max = 1;
    for (int i = 0; i < x.length; i++) {
      max = Math.max(max, Math.max(x[i], y[i]));
    }
    add(c, new Curve("same time", new double[] {0, max}, new double[] {0, max}, null, true), 1);
    c.getStyler().setMarkerSize(4);
    c.getStyler().setXAxisMin(0.0);
    c.getStyler().setYAxisMin(0.0);
    return c;
  }

  /** Lines of any kind on one chart. */
  static XYChart lines(String title, String xTitle, String yTitle, List<Curve> curves) {
    XYChart c = base(title, xTitle, yTitle);
    for (int i = 0; i < curves.size(); i++) {
      add(c, curves.get(i), i);
    }
    c.getStyler().setYAxisMin(0.0);
    if (curves.size() > 4) {
      // a horizontal legend does not wrap: many lines get a column on the right
      c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
      c.getStyler().setLegendLayout(Styler.LegendLayout.Vertical);
    }
    return c;
  }

  /**
   * Latency percentiles (left axis) and throughput (right axis) over time, the warm-up shaded.
   * warmup is [start, end] in seconds, or null.
   */
  static XYChart timeline(
      String title, double[] second, double[] p50, double[] p99, double[] qps, double[] warmup) {
    return timeline(title, second, p50, p99, qps, warmup, List.of());
  }

  /** The same, with each fault's interval ([start, end] in seconds, and a label) shaded red. */
  static XYChart timeline(
      String title,
      double[] second,
      double[] p50,
      double[] p99,
      double[] qps,
      double[] warmup,
      List<Shade> faults) {
    XYChart c = base(title, "seconds since start", "latency (ms)");
    double top = 0;
    for (double v : p99) {
      top = Math.max(top, v);
    }
    int color = 0;
    if (warmup != null && top > 0) {
      XYSeries w =
          c.addSeries(
              "warm-up",
              new double[] {warmup[0], warmup[1]},
              new double[] {top * 1.05, top * 1.05});
      w.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Area);
      w.setFillColor(WARMUP);
      w.setLineColor(WARMUP);
      w.setMarker(SeriesMarkers.NONE);
    }
    for (Shade f : faults) {
      if (top <= 0) {
        break;
      }
      XYSeries s =
          c.addSeries(
              f.label(),
              new double[] {f.start(), Math.max(f.end(), f.start() + 0.5)},
              new double[] {top * 1.05, top * 1.05});
      s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Area);
      s.setFillColor(FAULT);
      s.setLineColor(FAULT);
      s.setMarker(SeriesMarkers.NONE);
    }
    add(c, new Curve("latency p50", second, p50), color++).setMarker(SeriesMarkers.NONE);
    add(c, new Curve("latency p99", second, p99), color++).setMarker(SeriesMarkers.NONE);
    XYSeries q = add(c, new Curve("throughput (req/s, right axis)", second, qps, null, true), 2);
    q.setMarker(SeriesMarkers.NONE);
    q.setYAxisGroup(1);
    c.setYAxisGroupTitle(1, "requests per second");
    c.getStyler().setYAxisGroupPosition(1, Styler.YAxisPosition.Right);
    c.getStyler().setYAxisMin(0.0);
    return c;
  }

  /** A shaded interval of a timeline: a fault, from injection until recovered. */
  record Shade(String label, double start, double end) {}

  /**
   * Lines on two y axes: left ones solid, right ones dashed, the n-th of each in the same colour.
   */
  static XYChart twoAxes(
      String title,
      String xTitle,
      String leftTitle,
      String rightTitle,
      List<Curve> left,
      List<Curve> right) {
    XYChart c = base(title, xTitle, leftTitle);
    int i = 0;
    for (Curve l : left) {
      add(c, l, i++).setMarker(SeriesMarkers.NONE);
    }
    int j = 0;
    for (Curve r : right) {
      XYSeries s = add(c, new Curve(r.label(), r.x(), r.y(), null, true), j++);
      s.setMarker(SeriesMarkers.NONE);
      s.setYAxisGroup(1);
    }
    if (!right.isEmpty()) {
      c.setYAxisGroupTitle(1, rightTitle);
      c.getStyler().setYAxisGroupPosition(1, Styler.YAxisPosition.Right);
    }
    c.getStyler().setYAxisMin(0.0);
    return c;
  }

  /**
   * Latency against percentile on the classic axis of HdrHistogram plots: x = log10(1 / (1 - p)),
   * so 0 %, 90 %, 99 %, 99.9 % ... are evenly spaced. (XChart's own log axis ignores a custom tick
   * formatter, so the axis is linear over the logarithm.)
   */
  static XYChart distribution(String title, List<Curve> curves) {
    XYChart c = lines(title, "percentile", "latency (ms)", curves);
    c.setCustomXAxisTickLabelsFormatter(Charts::percentileLabel);
    c.getStyler().setXAxisMin(0.0);
    return c;
  }

  /** x of a percentile on the distribution chart. */
  static double percentileX(double percentile) {
    return Math.log10(1 / (1 - Math.min(percentile, 99.9999) / 100));
  }

  /** "99.9%" at x = 3; nothing between whole decades. */
  static String percentileLabel(double x) {
    long nines = Math.round(x);
    if (Math.abs(x - nines) > 1e-6 || nines < 0) {
      return "";
    }
    if (nines == 0) {
      return "0%";
    }
    String s =
        String.format(Locale.ROOT, "%.6f", 100 * (1 - Math.pow(10, -nines)))
            .replaceAll("0+$", "")
            .replaceAll("\\.$", "");
    return s + "%";
  }

  /** Lines over categories (parameter values that are not numbers, hit buckets): x = 0, 1, 2 ... */
  static XYChart categories(
      String title, String xTitle, String yTitle, List<String> names, List<Curve> curves) {
    XYChart c =
        lines(
            title,
            xTitle,
            yTitle,
            curves.stream().map(k -> everyCategory(k, names.size())).toList());
    Function<Double, String> label =
        x -> {
          long i = Math.round(x);
          return Math.abs(x - i) < 1e-6 && i >= 0 && i < names.size() ? names.get((int) i) : "";
        };
    c.setCustomXAxisTickLabelsFormatter(label);
    return c;
  }

  /**
   * A curve over categories with a point at every category, NaN (no point, a gap in the line) where
   * it has none. XChart 3.8.8's tick layout with a custom label formatter never ends on some x
   * values that are not equally spaced (0..8, 10, 11 did; seen in a report of a sweep whose benches
   * had no request in one hit bucket); equally spaced ones take another path.
   */
  static Curve everyCategory(Curve c, int categories) {
    double[] y = new double[categories];
    double[] err = c.err() == null ? null : new double[categories];
    Arrays.fill(y, Double.NaN);
    for (int i = 0; i < c.x().length; i++) {
      int at = (int) Math.round(c.x()[i]);
      if (at >= 0 && at < categories) {
        y[at] = c.y()[i];
        if (err != null) {
          err[at] = c.err()[i];
        }
      }
    }
    double[] x = new double[categories];
    for (int i = 0; i < categories; i++) {
      x[i] = i;
    }
    return new Curve(c.label(), x, y, err, c.dashed());
  }

  /** How long drawing one chart may take before it is given up. */
  static final Duration DRAW_TIMEOUT = Duration.ofSeconds(30);

  /** A chart XChart did not finish drawing in time. */
  static final class NotDrawn extends RuntimeException {
    NotDrawn(String id, Duration timeout) {
      super(
          "chart "
              + id
              + " was not drawn: laying it out took longer than "
              + timeout.toSeconds()
              + " s");
    }
  }

  /**
   * The chart as SVG text, ready to be saved as a file. Drawn on a thread of its own and given up
   * after {@link #DRAW_TIMEOUT} ({@link NotDrawn}): a layout loop of XChart's must cost a report a
   * chart, not hang the run that writes it (the loop does not heed interrupts, so its daemon thread
   * is left to end with the JVM).
   */
  static String svg(XYChart chart, String id) {
    return svg(chart, id, DRAW_TIMEOUT);
  }

  static String svg(XYChart chart, String id, Duration timeout) {
    FutureTask<byte[]> draw =
        new FutureTask<>(
            () -> {
              ByteArrayOutputStream out = new ByteArrayOutputStream();
              VectorGraphicsEncoder.saveVectorGraphic(
                  chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
              return out.toByteArray();
            });
    Thread t = new Thread(draw, "chart-" + id);
    t.setDaemon(true);
    t.start();
    byte[] bytes;
    try {
      bytes = draw.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new NotDrawn(id, timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NotDrawn(id, timeout);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw new UncheckedIOException(io);
      }
      throw e.getCause() instanceof RuntimeException re
          ? re
          : new IllegalStateException(e.getCause());
    }
    String s = new String(bytes, StandardCharsets.UTF_8);
    // two decimals are a hundredth of a pixel: the file is about half as big
    s = LONG_DECIMAL.matcher(s).replaceAll("$1");
    // clip path ids are per chart, so many charts can share one page
    s = CLIP.matcher(s).replaceAll(Matcher.quoteReplacement(id) + "-clip$1");
    return s;
  }

  /** The same SVG for inlining in HTML: no XML prolog, sized by CSS, with a title. */
  static String inline(String svg, String title) {
    String s = PROLOG.matcher(svg).replaceFirst("");
    s = s.replaceFirst("<svg ", "<svg role=\"img\" aria-label=\"" + Html.escape(title) + "\" ");
    s = s.replaceFirst(" height=\"[0-9.]+px\"", "").replaceFirst(" width=\"[0-9.]+px\"", "");
    return s;
  }
}
