package org.solrscale.cli;

import java.util.IllegalFormatException;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Ansi.Text;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.Column.Overflow;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Picocli's help with every section laid out in {@link SpaceWrappedTable}s: lines break at spaces,
 * never inside a URL, a path or a parameter name.
 */
final class WrappingHelp extends Help {
  WrappingHelp(CommandSpec spec, ColorScheme scheme) {
    super(spec, scheme);
  }

  /** Makes every help of {@code cl} and its subcommands wrap at spaces, as wide as the terminal. */
  static void install(CommandLine cl) {
    cl.setHelpFactory(WrappingHelp::new);
    cl.setUsageHelpAutoWidth(true);
  }

  private int width() {
    return commandSpec().usageMessage().width();
  }

  @Override
  public Layout createDefaultLayout(
      List<OptionSpec> options, List<PositionalParamSpec> positionals, ColorScheme scheme) {
    int longOptions = calcLongOptionColumnWidth(options, positionals, scheme);
    // the columns of TextTable.forDefaultColumns: "* -c, --create  Creates a ..."
    SpaceWrappedTable table =
        new SpaceWrappedTable(
            scheme,
            new Column(2, 0, Overflow.TRUNCATE),
            new Column(2, 0, Overflow.SPAN),
            new Column(1, 0, Overflow.TRUNCATE),
            new Column(longOptions, 1, Overflow.SPAN),
            new Column(width() - 5 - longOptions, 1, Overflow.WRAP));
    return new Layout(
        scheme, table, createDefaultOptionRenderer(), createDefaultParameterRenderer());
  }

  @Override
  protected String insertSynopsisCommandName(int headingLength, Text details) {
    String name = commandSpec().qualifiedName();
    int indent = headingLength + name.length() + 1;
    if (indent > commandSpec().usageMessage().synopsisAutoIndentThreshold() * width()) {
      indent = headingLength;
    }
    SpaceWrappedTable table =
        new SpaceWrappedTable(colorScheme(), new Column(width(), 0, Overflow.WRAP));
    table.indentWrappedLines = indent;
    Text padding = colorScheme().text("X".repeat(headingLength));
    table.addRowValues(padding.concat(colorScheme().commandText(name)).concat(details));
    return table.toString().substring(headingLength);
  }

  @Override
  public String description(Object... params) {
    SpaceWrappedTable table =
        new SpaceWrappedTable(colorScheme(), new Column(width(), 0, Overflow.WRAP));
    table.indentWrappedLines = 0;
    for (String line : commandSpec().usageMessage().description()) {
      table.addRowValues(colorScheme().text(format(line, params)));
    }
    return table.toString();
  }

  @Override
  public String commandList(Map<String, Help> subcommands) {
    if (subcommands.isEmpty()) {
      return "";
    }
    int names =
        Math.min(
            subcommands.keySet().stream().mapToInt(String::length).max().orElse(0), width() / 2);
    SpaceWrappedTable table =
        new SpaceWrappedTable(
            colorScheme(),
            new Column(names + 2, 2, Overflow.SPAN),
            new Column(width() - (names + 2), 2, Overflow.WRAP));
    for (Map.Entry<String, Help> e : subcommands.entrySet()) {
      CommandLine.Model.UsageMessageSpec usage = e.getValue().commandSpec().usageMessage();
      String first =
          usage.header().length > 0
              ? usage.header()[0]
              : usage.description().length > 0 ? usage.description()[0] : "";
      table.addRowValues(e.getValue().commandNamesText(", "), colorScheme().text(format(first)));
    }
    return table.toString();
  }

  private static String format(String text, Object... params) {
    try {
      return String.format(text, params);
    } catch (IllegalFormatException e) {
      return text;
    }
  }
}
