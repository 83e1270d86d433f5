package org.solrscale.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Help.Ansi.Text;
import picocli.CommandLine.Help.ColorScheme;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.TextTable;

/**
 * A picocli text table whose wrapping columns break lines at spaces only: picocli's own breaks
 * wherever Java's line BreakIterator may (after '/', '.', ','), which cut URLs, paths and option
 * labels in two. A word longer than the whole column is still cut, as before.
 */
final class SpaceWrappedTable extends TextTable {
  SpaceWrappedTable(ColorScheme scheme, Column... columns) {
    super(scheme, columns);
  }

  @Override
  public Cell putValue(int row, int col, Text value) {
    Column column = columns()[col];
    String plain = value == null ? "" : value.plainString();
    if (column.overflow != Column.Overflow.WRAP
        || plain.indexOf('\n') >= 0
        || column.indent + plain.length() <= column.width) {
      return super.putValue(row, col, value);
    }
    int first = column.width - column.indent;
    List<int[]> lines = lines(plain, first, first - indentWrappedLines);
    Cell cell = null;
    for (int i = 0; i < lines.size(); i++) {
      Text line = value.substring(lines.get(i)[0], lines.get(i)[1]);
      if (i > 0) {
        addEmptyRow();
        row = rowCount() - 1;
        line = value.substring(0, 0).concat(" ".repeat(indentWrappedLines)).concat(line);
      }
      cell = super.putValue(row, col, line);
    }
    return cell;
  }

  /** Start and end of each line: words (runs of non-spaces) filled greedily. */
  static List<int[]> lines(String text, int firstWidth, int nextWidth) {
    List<int[]> lines = new ArrayList<>();
    int i = 0;
    int n = text.length();
    while (i < n) {
      while (i < n && text.charAt(i) == ' ') {
        i++;
      }
      if (i == n) {
        break;
      }
      int width = lines.isEmpty() ? firstWidth : nextWidth;
      int end = i;
      int scan = i;
      while (scan < n) {
        int wordEnd = scan;
        while (wordEnd < n && text.charAt(wordEnd) != ' ') {
          wordEnd++;
        }
        if (wordEnd - i > width && end > i) {
          break; // this word goes on the next line
        }
        end = wordEnd;
        scan = wordEnd;
        while (scan < n && text.charAt(scan) == ' ') {
          scan++;
        }
      }
      lines.add(new int[] {i, end});
      i = end;
    }
    return lines;
  }
}
