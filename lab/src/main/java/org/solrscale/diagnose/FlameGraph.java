package org.solrscale.diagnose;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.solrscale.spec.SolrscaleException;

/**
 * A flame graph of CPU samples as one self-contained SVG: no script, no external font or style;
 * each frame is a box as wide as its share of samples, callers below callees, its full name and
 * share in a tooltip ({@code <title>}).
 */
final class FlameGraph {
  private static final int WIDTH = 1200;
  private static final int ROW = 16;
  private static final double MIN_WIDTH = 0.3; // boxes narrower than this many pixels are left out

  /** Samples by stack, merged into a tree from the outermost frame in. */
  static final class Tree {
    final String name;
    final Map<String, Tree> children = new LinkedHashMap<>();
    long samples;

    Tree() {
      this("all");
    }

    private Tree(String name) {
      this.name = name;
    }

    /** Adds one sample; {@code frames} innermost first, as a stack trace lists them. */
    void add(List<String> frames) {
      samples++;
      Tree t = this;
      for (int i = frames.size() - 1; i >= 0; i--) {
        t = t.children.computeIfAbsent(frames.get(i), Tree::new);
        t.samples++;
      }
    }

    int depth() {
      int d = 0;
      for (Tree c : children.values()) {
        d = Math.max(d, c.depth());
      }
      return d + 1;
    }
  }

  private FlameGraph() {}

  /** Writes the tree as an SVG titled {@code title}. */
  static void write(Tree tree, String title, Path file) {
    try {
      Files.writeString(file, svg(tree, title));
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot write " + file + ": " + e.getMessage());
    }
  }

  static String svg(Tree tree, String title) {
    int depth = Math.min(tree.depth(), 200);
    int height = (depth + 2) * ROW + 10;
    StringBuilder s = new StringBuilder();
    s.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
        .append(WIDTH)
        .append("\" height=\"")
        .append(height)
        .append("\" font-family=\"monospace\" font-size=\"11\">\n")
        .append("<text x=\"4\" y=\"13\">")
        .append(escape(title + " (" + tree.samples + " CPU samples)"))
        .append("</text>\n");
    List<Object[]> stack = new ArrayList<>();
    stack.add(new Object[] {tree, 0.0, 0});
    double scale = tree.samples == 0 ? 0 : (double) WIDTH / tree.samples;
    while (!stack.isEmpty()) {
      Object[] top = stack.remove(stack.size() - 1);
      Tree t = (Tree) top[0];
      double x = (double) top[1];
      int level = (int) top[2];
      double w = t.samples * scale;
      if (w < MIN_WIDTH || level >= depth) {
        continue;
      }
      box(s, t, x, height - (level + 1) * ROW - 4, w, tree.samples);
      double cx = x;
      for (Tree c : t.children.values()) {
        stack.add(new Object[] {c, cx, level + 1});
        cx += c.samples * scale;
      }
    }
    return s.append("</svg>\n").toString();
  }

  private static void box(StringBuilder s, Tree t, double x, int y, double w, long all) {
    String label = RecordingAnalysis.shortFrame(t.name);
    s.append("<g><title>")
        .append(escape(t.name))
        .append(
            String.format(
                Locale.ROOT, " (%d samples, %.2f %%)", t.samples, 100.0 * t.samples / all))
        .append("</title><rect x=\"")
        .append(String.format(Locale.ROOT, "%.1f", x))
        .append("\" y=\"")
        .append(y)
        .append("\" width=\"")
        .append(String.format(Locale.ROOT, "%.1f", w))
        .append("\" height=\"")
        .append(ROW - 1)
        .append("\" fill=\"")
        .append(color(t.name))
        .append("\"/>");
    int chars = (int) ((w - 4) / 7);
    if (chars >= 3) {
      String text = label.length() <= chars ? label : label.substring(0, chars - 2) + "..";
      s.append("<text x=\"")
          .append(String.format(Locale.ROOT, "%.1f", x + 2))
          .append("\" y=\"")
          .append(y + ROW - 4)
          .append("\">")
          .append(escape(text))
          .append("</text>");
    }
    s.append("</g>\n");
  }

  /** Warm colours, stable per name; the JDK's frames greyer than Solr's and Lucene's. */
  private static String color(String name) {
    int h = name.hashCode();
    if (name.startsWith("java.") || name.startsWith("jdk.") || name.startsWith("sun.")) {
      return String.format(Locale.ROOT, "rgb(%d,%d,%d)", 190 + (h & 31), 170 + (h >> 5 & 31), 150);
    }
    return String.format(Locale.ROOT, "rgb(%d,%d,%d)", 220 + (h & 31), 110 + (h >> 5 & 127), 40);
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
