package org.solrscale.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Picocli's parse errors in the house's one-line form: the options named plainly ({@code
 * --threads}, not its synopsis {@code --threads=<threads>}), what went wrong and what to do.
 */
final class UsageErrors {
  private UsageErrors() {}

  /**
   * The house's wording for {@code ex}, or picocli's own message (without its "Error: ") for the
   * errors that have none; {@code args} is the whole command line.
   */
  static String rewrite(CommandLine.ParameterException ex, String... args) {
    CommandLine cmd = ex.getCommandLine();
    String message = ex.getMessage() == null ? "" : ex.getMessage();
    String rewritten = null;
    if (ex instanceof CommandLine.MutuallyExclusiveArgsException
        || message.startsWith("Error: expected only one match")) {
      rewritten = exclusive(cmd, args);
    } else if (ex instanceof CommandLine.MissingParameterException m) {
      rewritten = missing(cmd, m, message);
    } else if (ex instanceof CommandLine.OverwrittenOptionException o
        && o.getOverwritten() instanceof OptionSpec option) {
      rewritten = option.longestName() + " is given more than once; give it once";
    } else if (message.startsWith("Invalid value for option '")) {
      rewritten = invalidValue(message);
    } else if (message.startsWith("Missing required subcommand")) {
      rewritten = subcommand(cmd);
    }
    return rewritten != null ? rewritten : message.replaceFirst("^Error: ", "");
  }

  /** Two options of an exclusive group given together, or one of them given twice. */
  private static String exclusive(CommandLine cmd, String[] args) {
    for (ArgGroupSpec group : groups(cmd.getCommandSpec().argGroups())) {
      if (!group.exclusive()) {
        continue;
      }
      List<String> given = given(group.allOptionsNested(), args);
      if (given.size() >= 2) {
        return and(given) + " cannot be used together; give only one of them";
      }
      if (given.size() == 1 && occurrences(given.get(0), group.allOptionsNested(), args) > 1) {
        return given.get(0) + " is given more than once; give it once";
      }
    }
    return null;
  }

  private static String missing(
      CommandLine cmd, CommandLine.MissingParameterException ex, String message) {
    String command = name(cmd);
    if (message.startsWith("Missing required parameter for option '")
        && ex.getMissing().size() == 1
        && ex.getMissing().get(0) instanceof OptionSpec o) {
      return o.longestName() + " is missing its value; give one after it";
    }
    if (message.startsWith("Error: Missing required argument")) {
      List<String> names = ex.getMissing().stream().map(UsageErrors::plain).toList();
      return command
          + " needs "
          + (names.size() == 1 ? names.get(0) : or(names) + "; give one of them");
    }
    if (message.startsWith("Missing required option")) {
      List<String> names = ex.getMissing().stream().map(UsageErrors::plain).toList();
      return command
          + " is missing "
          + and(names)
          + (names.size() == 1 ? "; add it" : "; add them");
    }
    if (message.startsWith("Missing required parameter")) {
      List<String> names = ex.getMissing().stream().map(a -> plain(a) + about(a)).toList();
      return command
          + " is missing "
          + and(names)
          + (names.size() == 1 ? "; add it" : "; add them");
    }
    return null;
  }

  private static String subcommand(CommandLine cmd) {
    return name(cmd)
        + " needs a command: give one of "
        + String.join(
            ", ",
            cmd.getSubcommands().entrySet().stream()
                .filter(e -> !e.getValue().getCommandSpec().usageMessage().hidden())
                .map(e -> e.getKey())
                .toList());
  }

  /** "Invalid value for option '--nodes': 'two' is not an int" says --nodes: 'two' is not ... */
  private static String invalidValue(String message) {
    int end = message.indexOf("': ");
    if (end < 0) {
      return null;
    }
    String option = message.substring("Invalid value for option '".length(), end);
    String why = message.substring(end + 3);
    java.util.regex.Matcher number =
        java.util.regex.Pattern.compile("(.*) is not an? (int|long|short|byte|double|float)$")
            .matcher(why);
    if (number.matches()) {
      boolean whole = !number.group(2).equals("double") && !number.group(2).equals("float");
      return option + " takes a " + (whole ? "whole " : "") + "number, not " + number.group(1);
    }
    return option + ": " + why;
  }

  /** The command as the user types it after "solrscale", e.g. "data sample". */
  static String name(CommandLine cmd) {
    String qualified = cmd.getCommandSpec().qualifiedName();
    String root = cmd.getCommandSpec().root().name();
    return qualified.equals(root) ? root : qualified.substring(root.length() + 1);
  }

  /** An option by its longest name; a positional parameter by its label, e.g. FILE. */
  static String plain(ArgSpec arg) {
    if (arg instanceof OptionSpec o) {
      return o.longestName();
    }
    return arg.paramLabel().replace("<", "").replace(">", "").toUpperCase();
  }

  /** " (input files or globs)" for a positional parameter: its label alone says little. */
  private static String about(ArgSpec arg) {
    if (!(arg instanceof PositionalParamSpec) || arg.description().length == 0) {
      return "";
    }
    String d = arg.description()[0].strip().replaceAll("\\.$", "");
    return d.isEmpty() ? "" : " (" + d + ")";
  }

  private static List<ArgGroupSpec> groups(List<ArgGroupSpec> top) {
    List<ArgGroupSpec> all = new ArrayList<>();
    for (ArgGroupSpec g : top) {
      all.add(g);
      all.addAll(groups(g.subgroups()));
    }
    return all;
  }

  /** The longest names of the options that {@code args} names, in the order it names them. */
  private static List<String> given(List<OptionSpec> options, String[] args) {
    Set<String> given = new LinkedHashSet<>();
    for (String a : args) {
      for (OptionSpec o : options) {
        if (Arrays.stream(o.names()).anyMatch(n -> a.equals(n) || a.startsWith(n + "="))) {
          given.add(o.longestName());
        }
      }
    }
    return List.copyOf(given);
  }

  private static long occurrences(String longest, List<OptionSpec> options, String[] args) {
    OptionSpec o =
        options.stream().filter(x -> x.longestName().equals(longest)).findFirst().orElseThrow();
    return Arrays.stream(args)
        .filter(a -> Arrays.stream(o.names()).anyMatch(n -> a.equals(n) || a.startsWith(n + "=")))
        .count();
  }

  static String and(List<String> names) {
    return join(names, " and ");
  }

  static String or(List<String> names) {
    return join(names, " or ");
  }

  private static String join(List<String> names, String last) {
    if (names.size() == 1) {
      return names.get(0);
    }
    return String.join(", ", names.subList(0, names.size() - 1))
        + last
        + names.get(names.size() - 1);
  }
}
