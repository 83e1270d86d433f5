package org.solrscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Every command's parse errors (options that exclude each other, required options, their values and
 * parameters) read as one house line: no picocli "Error:", the options named plainly, what to do,
 * and exit code 2. Each error is provoked on a command line that is whole but for it.
 */
class UsageErrorsTest {

  /** Exit code and stderr of solrscale run in this JVM. */
  private record Result(int code, String err) {}

  private static Result run(List<String> args) {
    // parse first: a command line that parses would run the command (and look for Solr)
    String[] argv = args.toArray(String[]::new);
    try {
      Main.commandLine(new Main(), argv).parseArgs(argv);
      throw new AssertionError("parsed without an error: " + String.join(" ", args));
    } catch (CommandLine.ParameterException expected) {
      // the error this test is about
    }
    return execute(argv);
  }

  private static Result execute(String... argv) {
    PrintStream oldErr = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      int code = Main.run(argv);
      return new Result(code, err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setErr(oldErr);
    }
  }

  /** Every runnable command: its words after "solrscale" and its model. */
  private record Command(List<String> words, CommandSpec spec) {}

  private static List<Command> everyCommand() {
    List<Command> all = new ArrayList<>();
    walk(Main.commandLine(new Main()), List.of(), all);
    return all;
  }

  private static void walk(CommandLine cl, List<String> words, List<Command> all) {
    all.add(new Command(words, cl.getCommandSpec()));
    cl.getSubcommands()
        .forEach(
            (name, sub) -> {
              if (!name.equals("help") && sub.getCommandSpec().name().equals(name)) {
                List<String> w = new ArrayList<>(words);
                w.add(name);
                walk(sub, w, all);
              }
            });
  }

  /** A value of the option's type that picocli accepts. */
  private static String sample(ArgSpec arg) {
    Class<?> type = arg.typeInfo().getType();
    if (arg.typeInfo().isCollection() || arg.typeInfo().isArray()) {
      type = arg.typeInfo().getAuxiliaryTypes()[0];
    }
    if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
      return "1";
    }
    if (type == double.class || type == Double.class) {
      return "1.0";
    }
    if (type == Duration.class) {
      return "1s";
    }
    if (type.isEnum()) {
      return type.getEnumConstants()[0].toString();
    }
    return "x";
  }

  private static List<String> option(OptionSpec o) {
    return o.arity().max() == 0 ? List.of(o.longestName()) : List.of(o.longestName(), sample(o));
  }

  /**
   * The command line that gives every required option, parameter and group of {@code c} (the first
   * option of a required group), leaving out {@code without}.
   */
  private static List<String> whole(Command c, Object without) {
    List<String> args = new ArrayList<>(c.words());
    for (OptionSpec o : c.spec().options()) {
      if (o.required() && o.group() == null && o != without) {
        args.addAll(option(o));
      }
    }
    for (ArgGroupSpec g : c.spec().argGroups()) {
      if (g.multiplicity().min() > 0 && g != without) {
        args.addAll(option(g.allOptionsNested().get(0)));
      }
    }
    for (PositionalParamSpec p : c.spec().positionalParameters()) {
      if (p.required() && p != without) {
        args.add(sample(p));
      }
    }
    return args;
  }

  private static void assertHouseLine(Command c, List<String> args, String... fragments) {
    Result r = run(args);
    String line = r.err().strip();
    String command = String.join(" ", c.words());
    assertThat(r.code()).as(String.join(" ", args)).isEqualTo(2);
    assertThat(line.lines()).as(String.join(" ", args)).hasSize(1);
    assertThat(line)
        .as(String.join(" ", args))
        .startsWith("solrscale: ")
        .doesNotContain("Error")
        .doesNotContain("=<")
        .doesNotContain("specify")
        .contains(fragments)
        .containsAnyOf("; give ", "; add ")
        .endsWith(" (see solrscale " + command + " --help)");
  }

  @Test
  void sshParallelGoesWithEveryCommandAndANegativeOneIsOneLine() {
    try {
      Result r = run(List.of("status", "--name", "x", "--ssh-parallel", "-1"));
      assertThat(r.code()).isEqualTo(2);
      assertThat(r.err().strip())
          .startsWith("solrscale: --ssh-parallel -1 is negative; give 1 or more (0: no bound)")
          .doesNotContain("\n");
      // after the command's name as before it, the bound is set for the whole process
      Main.commandLine(new Main(), "status").parseArgs("status", "--ssh-parallel", "3");
      assertThat(org.solrscale.cluster.SshGate.bound()).isEqualTo(3);
      Main.commandLine(new Main(), "status").parseArgs("--ssh-parallel", "0", "status");
      assertThat(org.solrscale.cluster.SshGate.bound()).isZero();
    } finally {
      org.solrscale.cluster.SshGate.bound(org.solrscale.cluster.SshGate.DEFAULT);
    }
  }

  @Test
  void everyCommandLineThatIsWholeParses() {
    for (Command c : everyCommand()) {
      if (c.words().isEmpty() || !c.spec().subcommands().isEmpty()) {
        continue;
      }
      List<String> args = whole(c, null);
      String[] argv = args.toArray(String[]::new);
      Main.commandLine(new Main(), argv).parseArgs(argv); // throws if the samples are wrong
    }
  }

  @Test
  void optionsThatExcludeEachOtherAreNamedPlainlyWithWhatToDo() {
    int checked = 0;
    for (Command c : everyCommand()) {
      for (ArgGroupSpec g : c.spec().argGroups()) {
        if (!g.exclusive() || g.allOptionsNested().size() < 2) {
          continue;
        }
        OptionSpec a = g.allOptionsNested().get(0);
        OptionSpec b = g.allOptionsNested().get(1);
        List<String> both = whole(c, g);
        both.addAll(option(a));
        both.addAll(option(b));
        assertHouseLine(
            c,
            both,
            a.longestName() + " and " + b.longestName() + " cannot be used together",
            "give only one");
        List<String> twice = whole(c, g);
        twice.addAll(option(a));
        twice.addAll(option(a));
        assertHouseLine(c, twice, a.longestName() + " is given more than once; give it once");
        if (g.multiplicity().min() > 0) {
          List<String> names = g.allOptionsNested().stream().map(OptionSpec::longestName).toList();
          assertHouseLine(
              c,
              whole(c, g),
              String.join(" ", c.words()) + " needs " + UsageErrors.or(names),
              "give one of them");
        }
        checked++;
      }
    }
    assertThat(checked)
        .as("exclusive groups: bench, data sample at least")
        .isGreaterThanOrEqualTo(2);
  }

  @Test
  void aMissingRequiredOptionValueOrParameterIsNamedWithWhatToDo() {
    int checked = 0;
    for (Command c : everyCommand()) {
      if (c.words().isEmpty() || !c.spec().subcommands().isEmpty()) {
        continue;
      }
      String command = String.join(" ", c.words());
      for (OptionSpec o : c.spec().options()) {
        if (!o.required() || o.group() != null) {
          continue;
        }
        assertHouseLine(c, whole(c, o), command + " is missing " + o.longestName() + "; add it");
        if (o.arity().min() > 0) {
          List<String> last = whole(c, o);
          last.add(o.longestName());
          assertHouseLine(c, last, o.longestName() + " is missing its value; give one after it");
        }
        checked++;
      }
      for (PositionalParamSpec p : c.spec().positionalParameters()) {
        if (p.required()) {
          assertHouseLine(
              c, whole(c, p), command + " is missing " + UsageErrors.plain(p), "; add it");
          checked++;
        }
      }
    }
    assertThat(checked).isGreaterThan(15);
  }

  @Test
  void aCommandOfCommandsSaysWhichThereAre() {
    int checked = 0;
    for (Command c : everyCommand()) {
      Object user = c.spec().userObject();
      if (c.spec().subcommands().isEmpty()
          || user instanceof Runnable
          || user instanceof Callable) {
        continue;
      }
      Result r = execute(c.words().toArray(String[]::new)); // parses: the error comes on running
      assertThat(r.code()).isEqualTo(2);
      assertThat(r.err().strip())
          .startsWith(
              "solrscale: " + String.join(" ", c.words()) + " needs a command: give one of ")
          .doesNotContain("Missing");
      checked++;
    }
    assertThat(checked).as("node, collection, data, relay, net...").isGreaterThanOrEqualTo(3);
  }

  @Test
  void aValueOfTheWrongTypeSaysWhatTheOptionTakes() {
    Result r = run(List.of("up", "--nodes", "two"));
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err().strip())
        .isEqualTo("solrscale: --nodes takes a whole number, not 'two' (see solrscale up --help)");
    r = run(List.of("list", "extra"));
    assertThat(r.err().strip())
        .isEqualTo("solrscale: list does not take 'extra'; remove it (see solrscale list --help)");
  }

  @Test
  void theBenchExampleOfTheIssue() {
    Result r =
        run(
            List.of(
                "bench", "--collection", "c", "--queries", "q", "--rate", "50", "--threads", "4"));
    assertThat(r.err().strip())
        .isEqualTo(
            "solrscale: --rate and --threads cannot be used together; give only one of them"
                + " (see solrscale bench --help)");
    assertThat(r.code()).isEqualTo(2);
  }
}
