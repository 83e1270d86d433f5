package org.solrscale.spec;

import java.util.Map;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * A YAML syntax error said plainly: where, what the parser expected and what it found there, in
 * words a user wrote rather than the parser's token names, with a hint for the usual causes.
 */
final class YamlSyntax {
  /** SnakeYAML's token names, as a user would call what they wrote. */
  private static final Map<String, String> TOKENS =
      Map.ofEntries(
          Map.entry("<block end>", "the end of the indented block"),
          Map.entry("<block mapping start>", "a key indented differently from the keys before it"),
          Map.entry("<block sequence start>", "an indented list"),
          Map.entry("<block entry>", "a list item ('- ')"),
          Map.entry("'-'", "a list item ('- ')"),
          Map.entry("<scalar>", "a plain value"),
          Map.entry("<key>", "a key"),
          Map.entry("'?'", "a key"),
          Map.entry("<value>", "':'"),
          Map.entry("':'", "':'"),
          Map.entry("<flow mapping end>", "'}'"),
          Map.entry("'}'", "'}'"),
          Map.entry("<flow sequence end>", "']'"),
          Map.entry("']'", "']'"),
          Map.entry("<flow entry>", "','"),
          Map.entry("','", "','"),
          Map.entry("<flow mapping start>", "'{'"),
          Map.entry("'{'", "'{'"),
          Map.entry("<flow sequence start>", "'['"),
          Map.entry("'['", "'['"),
          Map.entry("<stream end>", "the end of the file"),
          Map.entry("<document start>", "'---'"),
          Map.entry("<anchor>", "an anchor ('&')"),
          Map.entry("<alias>", "an alias ('*')"),
          Map.entry("<tag>", "a tag ('!')"));

  private YamlSyntax() {}

  /** {@code line:column: message} for a YAML syntax error anywhere in the chain, else null. */
  static String describe(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof MarkedYAMLException y) {
        return describe(y);
      }
    }
    return null;
  }

  private static String describe(MarkedYAMLException y) {
    Mark at = y.getProblemMark() != null ? y.getProblemMark() : y.getContextMark();
    String where = at == null ? "" : (at.getLine() + 1) + ":" + (at.getColumn() + 1) + ":";
    String problem = y.getProblem() == null ? "" : y.getProblem().strip();
    String context = y.getContext() == null ? "" : y.getContext().strip();
    Mark from = y.getContextMark();
    String opened =
        from == null || from == at
            ? ""
            : " (in the "
                + context.replaceFirst("^while (parsing|scanning) (a |an )?", "")
                + " that starts at line "
                + (from.getLine() + 1)
                + ", column "
                + (from.getColumn() + 1)
                + ")";
    String text;
    var m = Pattern.compile("expected (.+), but found (.+)").matcher(problem);
    if (m.matches()) {
      text =
          "expected "
              + word(m.group(1))
              + ", but found "
              + word(m.group(2))
              + opened
              + hint(m.group(1), m.group(2));
    } else if (problem.startsWith("mapping values are not allowed here")) {
      text =
          "a second ':' on one line: quote a value that holds ': ' (e.g. 'a: b'), or put the key on a line of its own";
    } else if (problem.contains("found unexpected end of stream")) {
      text = "the file ends inside something that was opened" + opened + "; close it";
    } else if (problem.contains("(TAB)")) {
      text = "a tab character: YAML indents with spaces only";
    } else {
      text = problem + opened;
    }
    return where + " YAML syntax: " + text;
  }

  private static String word(String token) {
    String t = token.strip();
    if (t.length() > 2 && t.startsWith("'<") && t.endsWith(">'")) {
      t = t.substring(1, t.length() - 1); // SnakeYAML quotes some token names
    }
    return TOKENS.getOrDefault(t, t);
  }

  private static String hint(String expected, String found) {
    boolean indentation =
        expected.contains("<block end>")
            || found.contains("<block mapping start>")
            || found.contains("<block sequence start>")
            || found.contains("<block entry>");
    return indentation ? "; check this line's indentation against the lines above it" : "";
  }
}
