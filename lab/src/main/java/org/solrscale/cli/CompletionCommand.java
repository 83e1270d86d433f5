package org.solrscale.cli;

import java.util.concurrent.Callable;
import org.solrscale.spec.SolrscaleException;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * `solrscale completion bash|zsh`: a shell completion script made by picocli's AutoComplete from
 * the commands (zsh runs the bash script through its bashcompinit).
 */
@Command(
    name = "completion",
    description = {
      "Print a completion script for bash or zsh.",
      "Install for bash: add  source <(solrscale completion bash)  to ~/.bashrc",
      "(or save it as /etc/bash_completion.d/solrscale); for zsh: add",
      "source <(solrscale completion zsh)  to ~/.zshrc. solrscale must be on the PATH."
    })
final class CompletionCommand implements Callable<Integer> {
  @Parameters(paramLabel = "SHELL", description = "bash or zsh.")
  String shell;

  @Override
  public Integer call() {
    if (!shell.equals("bash") && !shell.equals("zsh")) {
      throw SolrscaleException.usage("completion is for bash or zsh, not '" + shell + "'");
    }
    // the whole command tree: run() gave this command line only the completion command
    String script = AutoComplete.bash("solrscale", Main.commandLine(new Main()));
    System.out.print(script); // one script: run by zsh, it turns on zsh's bashcompinit itself
    return 0;
  }
}
