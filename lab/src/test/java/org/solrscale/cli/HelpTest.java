package org.solrscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** Help at 80 columns keeps every word whole; mistyped options and commands get suggestions. */
class HelpTest {

  /** Every command and subcommand, help rendered 80 columns wide as on a small terminal. */
  private static List<CommandLine> everyCommand() {
    List<CommandLine> all = new ArrayList<>();
    List<CommandLine> todo = new ArrayList<>(List.of(Main.commandLine(new Main())));
    while (!todo.isEmpty()) {
      CommandLine cl = todo.remove(0);
      cl.getCommandSpec().usageMessage().autoWidth(false).width(80);
      all.add(cl);
      todo.addAll(cl.getSubcommands().values());
    }
    return all;
  }

  @Test
  void noWordIsCutAtEightyColumns() {
    int checked = 0;
    for (CommandLine cl : everyCommand()) {
      String help = cl.getUsageMessage(CommandLine.Help.Ansi.OFF);
      assertThat(help.lines()).as(cl.getCommandName()).allMatch(l -> l.length() <= 80);
      List<String> words = new ArrayList<>();
      Arrays.stream(cl.getCommandSpec().usageMessage().description())
          .forEach(d -> words.addAll(words(d)));
      for (OptionSpec o : cl.getCommandSpec().options()) {
        if (!o.hidden()) {
          Arrays.stream(o.description()).forEach(d -> words.addAll(words(d)));
          words.add(
              o.longestName()
                  + (o.typeInfo().isBoolean()
                      ? ""
                      : o.arity().min() == 0 // an optional value: --attribute[=SHARE]
                          ? "[=" + o.paramLabel() + "]"
                          : "=" + o.paramLabel()));
        }
      }
      for (String w : words) {
        assertThat(help)
            .as("'%s' in the help of %s", w, cl.getCommandSpec().qualifiedName())
            .contains(w);
        checked++;
      }
    }
    assertThat(checked).isGreaterThan(500);
  }

  private static List<String> words(String text) {
    String plain = text.replace("${DEFAULT-VALUE}", "").replace("%n", " ").replace("%%", "%");
    // words of a line as wide as the description column (at least 40 of the 80) are never cut
    return Arrays.stream(plain.split("\\s+"))
        .filter(w -> !w.isEmpty() && w.length() < 40 && !w.contains("$"))
        .toList();
  }

  @Test
  void theBenchHelpKeepsTheExampleUrlWhole() {
    CommandLine bench = Main.commandLine(new Main(), "bench").getSubcommands().get("bench");
    bench.getCommandSpec().usageMessage().autoWidth(false).width(80);
    assertThat(bench.getUsageMessage(CommandLine.Help.Ansi.OFF))
        .contains("http://127.0.0.1:8983/solr")
        .contains("node.sysprop:sysprop.dc");
  }

  private static String error(String... args) {
    try {
      Main.commandLine(new Main(), args).parseArgs(args);
      throw new AssertionError("parsed: " + String.join(" ", args));
    } catch (CommandLine.ParameterException e) {
      return Main.usageError(e, args);
    }
  }

  @Test
  void aMistypedOptionIsNamedWithTheOptionsItMayHaveMeant() {
    assertThat(error("index", "--colection", "docs", "in.jsonl"))
        .isEqualTo("Unknown option: '--colection'; did you mean --collection or --commit?");
    assertThat(error("up", "--shard", "3"))
        .startsWith("Unknown options: '--shard', '3'; did you mean --shards");
    assertThat(error("bench", "--collection", "c", "--queries", "q.txt", "--thread", "2"))
        .contains("did you mean --threads");
  }

  @Test
  void aMistypedCommandIsNamedWithTheCommandsThereAre() {
    assertThat(error("stauts"))
        .startsWith("unknown command 'stauts': give one of up, status, down,")
        .endsWith("; did you mean status, distribute or data?")
        .doesNotContain("cds-training");
    assertThat(error("collection", "delet"))
        .isEqualTo("unknown command 'delet': give one of create, delete; did you mean delete?");
  }

  @Test
  void theVersionNamesTheGitRevisionItWasBuiltFrom() throws Exception {
    String line = Version.line();
    assertThat(line)
        .matches(
            "solrscale \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\((git [0-9a-f]{7}(, dirty)?"
                + "|git revision unknown: built without git or \\.git)\\)");
    Process git =
        new ProcessBuilder("git", "rev-parse", "--short=7", "HEAD")
            .redirectErrorStream(true)
            .start();
    String head = new String(git.getInputStream().readAllBytes()).strip();
    if (git.waitFor() == 0) { // a checkout: the build recorded its commit
      assertThat(line).contains("(git " + head);
    } else {
      assertThat(line).contains("git revision unknown");
    }
  }
}
