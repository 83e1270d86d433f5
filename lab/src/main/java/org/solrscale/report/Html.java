package org.solrscale.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Small helpers to write the report's HTML: escaping, numbers, tables. */
final class Html {
  private Html() {}

  static String escape(Object o) {
    String s = String.valueOf(o);
    StringBuilder b = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  /** {@code text} with its first letter made upper case (a clause that starts a sentence). */
  static String capitalized(String text) {
    return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }

  /** Three significant digits or so: 1,234 / 56.7 / 8.91 / 0.123. */
  static String num(double v) {
    if (Double.isNaN(v)) {
      return "-";
    }
    double a = Math.abs(v);
    String f = a >= 100 ? "%,.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : a == 0 ? "%.0f" : "%.3f";
    return String.format(Locale.ROOT, f, v);
  }

  static String pct(Double v) {
    return v == null ? "-" : String.format(Locale.ROOT, "%+.1f %%", v);
  }

  /** An HTML table; cells are escaped unless added with rawRow. */
  static final class Table {
    private final String[] header;
    private final List<String[]> rows = new ArrayList<>();
    private final String cssClass;

    Table(String cssClass, String... header) {
      this.cssClass = cssClass;
      this.header = header;
    }

    Table row(Object... cells) {
      String[] r = new String[cells.length];
      for (int i = 0; i < cells.length; i++) {
        r[i] = cells[i] == null ? "" : escape(cells[i]);
      }
      rows.add(r);
      return this;
    }

    /** Cells already in HTML. */
    Table rawRow(String... cells) {
      rows.add(cells);
      return this;
    }

    boolean isEmpty() {
      return rows.isEmpty();
    }

    String render() {
      StringBuilder b = new StringBuilder("<table class=\"" + cssClass + "\"><thead><tr>");
      for (String h : header) {
        b.append("<th>").append(escape(h)).append("</th>");
      }
      b.append("</tr></thead><tbody>\n");
      for (String[] r : rows) {
        b.append("<tr>");
        for (String c : r) {
          b.append("<td>").append(c == null ? "" : c).append("</td>");
        }
        b.append("</tr>\n");
      }
      return b.append("</tbody></table>\n").toString();
    }
  }
}
