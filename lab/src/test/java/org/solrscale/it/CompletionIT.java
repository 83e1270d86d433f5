package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The completion script completes commands and options in a real bash. */
class CompletionIT {

  /** What bash offers for {@code line} (the last word being completed) with the script loaded. */
  private static String complete(Path script, String line) throws Exception {
    String words = line.endsWith(" ") ? line + "''" : line;
    Process bash =
        new ProcessBuilder(
                "bash",
                "-c",
                "source "
                    + script
                    + " 2>/dev/null; COMP_LINE='"
                    + line
                    + "'; COMP_POINT=${#COMP_LINE}; COMP_WORDS=("
                    + words
                    + "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); "
                    + "_complete_solrscale 2>/dev/null; echo \"${COMPREPLY[*]}\"")
            .redirectErrorStream(true)
            .start();
    try {
      assertThat(bash.waitFor(30, TimeUnit.SECONDS)).isTrue();
      return new String(bash.getInputStream().readAllBytes()).strip();
    } finally {
      bash.destroyForcibly(); // by its handle, if it hung
    }
  }

  @Test
  void bashCompletesCommandsAndOptions(@TempDir Path dir) throws Exception {
    for (String shell : new String[] {"bash", "zsh"}) {
      Cli.Result r = Cli.run("completion", shell);
      assertThat(r.exitCode()).as(r.err()).isZero();
      assertThat(r.out())
          .contains("complete -F _complete_solrscale")
          .doesNotContain("cds-training");
    }
    Path script = dir.resolve("solrscale-completion.bash");
    Files.writeString(script, Cli.run("completion", "bash").out());
    assertThat(complete(script, "solrscale sta")).isEqualTo("status");
    assertThat(complete(script, "solrscale lo")).isEqualTo("logs");
    assertThat(complete(script, "solrscale index --coll")).isEqualTo("--collection");
    assertThat(complete(script, "solrscale logs --fol")).isEqualTo("--follow");
    assertThat(complete(script, "solrscale up --zoo")).isEqualTo("--zookeepers");
    assertThat(complete(script, "solrscale net st")).isEqualTo("status");
    assertThat(complete(script, "solrscale net up --band")).isEqualTo("--bandwidth");
    assertThat(Cli.run("completion", "fish").exitCode()).isEqualTo(2);
  }
}
