package org.solrscale.cli;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.solrscale.cluster.SshGate;
import org.solrscale.spec.ExitCode;
import org.solrscale.spec.Interruption;
import org.solrscale.spec.SolrscaleException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The solrscale command: parses, dispatches to a subcommand and maps errors to exit codes. */
@Command(
    name = "solrscale",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description =
        "A lab for scaling Apache Solr: deploy SolrCloud clusters, load, break and measure them.")
public final class Main implements Runnable {
  /** The subcommands, in the order help lists them. */
  private static final List<Class<?>> SUBCOMMANDS =
      List.of(
          UpCommand.class,
          StatusCommand.class,
          DownCommand.class,
          ListCommand.class,
          NodeCommand.class,
          AddNodeCommand.class,
          RemoveNodeCommand.class,
          CollectionCommand.class,
          DataCommand.class,
          IndexCommand.class,
          BenchCommand.class,
          BenchDriverCommand.class,
          CapacityCommand.class,
          CalibrationServerCommand.class,
          DoctorCommand.class,
          RunCommand.class,
          WatchCommand.class,
          ReportCommand.class,
          CompareCommand.class,
          ChaosCommand.class,
          DistributeCommand.class,
          DemoCommand.class,
          LogsCommand.class,
          NetCommand.class,
          NetDelayerCommand.class,
          NetProbeCommand.class,
          CompletionCommand.class,
          CdsTrainingCommand.class,
          RelayCommand.class,
          CommandLine.HelpCommand.class);

  /**
   * The exit code of a command stopped by Ctrl-C or SIGTERM, as a shell reports one (128 + SIGINT).
   */
  static final int INTERRUPTED = 130;

  @Option(
      names = "--verbose",
      scope = ScopeType.INHERIT,
      description = "Show stack traces and client logs.")
  boolean verbose;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--ssh-parallel",
      scope = ScopeType.INHERIT,
      paramLabel = "N",
      description =
          "Set up at most N SSH connections to hosts at once (default: "
              + SshGate.DEFAULT
              + ", under sshd's default MaxStartups of 10; 0: no bound); once connected, every"
              + " host is worked on at once.")
  void sshParallel(int n) {
    if (n < 0) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--ssh-parallel " + n + " is negative; give 1 or more (0: no bound)");
    }
    SshGate.bound(n);
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /**
   * Every subcommand answers --help (and -h), as its error messages suggest, and --version (and
   * -V), which the same options list: without a version provider of its own it printed nothing.
   */
  private static void withHelp(CommandLine cl) {
    cl.getCommandSpec().mixinStandardHelpOptions(true);
    if (cl.getCommandSpec().versionProvider() == null) {
      cl.getCommandSpec().versionProvider(new Version());
    }
    cl.getSubcommands().values().forEach(Main::withHelp);
  }

  /**
   * The command line for {@code args}. Picocli builds a subcommand's model by reflection, about 0.3
   * s of start-up for all of them; arguments that start with a subcommand's name get only that one
   * (no arguments, help, options first and unknown commands get all).
   */
  static CommandLine commandLine(Main main, String... args) {
    CommandLine cl = new CommandLine(main);
    Class<?> named =
        args.length == 0
            ? null
            : SUBCOMMANDS.stream()
                .filter(
                    c ->
                        c != CommandLine.HelpCommand.class
                            && c.getAnnotation(Command.class).name().equals(args[0]))
                .findFirst()
                .orElse(null);
    for (Class<?> c : named != null ? List.of(named) : SUBCOMMANDS) {
      cl.addSubcommand(c);
    }
    withHelp(cl);
    WrappingHelp.install(cl);
    return cl;
  }

  /**
   * One line for a command line picocli cannot parse, with picocli's suggestions for a mistyped
   * option or command ("did you mean --collection?").
   */
  static String usageError(CommandLine.ParameterException ex, String... args) {
    CommandLine cmd = ex.getCommandLine();
    String message = UsageErrors.rewrite(ex, args);
    if (!(ex instanceof CommandLine.UnmatchedArgumentException)
        && cmd.getUnmatchedArguments().stream().anyMatch(a -> a.startsWith("-"))) {
      // a mistyped required option is reported as missing: the typo is the better news
      ex = new CommandLine.UnmatchedArgumentException(cmd, cmd.getUnmatchedArguments());
      message = ex.getMessage();
    }
    if (!(ex instanceof CommandLine.UnmatchedArgumentException u) || u.getUnmatched().isEmpty()) {
      return message;
    }
    String first = u.getUnmatched().get(0);
    if (cmd.getSubcommands().isEmpty() && !first.startsWith("-")) {
      // picocli says "Unmatched argument at index 1: 'extra'"
      List<String> extra = u.getUnmatched().stream().map(a -> "'" + a + "'").toList();
      message =
          UsageErrors.name(cmd)
              + " does not take "
              + UsageErrors.and(extra)
              + (extra.size() == 1 ? "; remove it" : "; remove them");
    }
    if (!cmd.getSubcommands().isEmpty() && !first.startsWith("-")) {
      // picocli says "Unmatched argument at index 1: 'foo'"
      message =
          "unknown command '"
              + first
              + "': give one of "
              + String.join(
                  ", ",
                  cmd.getSubcommands().entrySet().stream()
                      .filter(e -> !e.getValue().getCommandSpec().usageMessage().hidden())
                      .map(Map.Entry::getKey)
                      .toList());
    }
    List<String> suggestions =
        u.getSuggestions().stream()
            .filter(
                s ->
                    !cmd.getSubcommands().containsKey(s)
                        || !cmd.getSubcommands().get(s).getCommandSpec().usageMessage().hidden())
            .limit(3)
            .toList();
    if (suggestions.isEmpty()) {
      return message;
    }
    String last = suggestions.get(suggestions.size() - 1);
    return message
        + "; did you mean "
        + (suggestions.size() == 1
            ? last
            : String.join(", ", suggestions.subList(0, suggestions.size() - 1)) + " or " + last)
        + "?";
  }

  /** Runs solrscale in this JVM and returns its exit code (tests call this). */
  public static int run(String... args) {
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      boolean verbose = Arrays.asList(args).contains("--verbose");
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", verbose ? "info" : "error");
      // ZooKeeper's client logs errors with stack traces from its own threads (e.g. a watcher
      // firing after a client that could not connect was closed); we report one line instead
      System.setProperty(
          "org.slf4j.simpleLogger.log.org.apache.zookeeper", verbose ? "info" : "off");
    }
    System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
    SshGate.bound(SshGate.DEFAULT); // tests run many commands in one JVM
    Main main = new Main();
    CommandLine cl = commandLine(main, args);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setParameterExceptionHandler(
        (ex, argv) -> {
          CommandLine cmd = ex.getCommandLine();
          System.err.println(
              "solrscale: "
                  + usageError(ex, argv)
                  + " (see "
                  + cmd.getCommandSpec().qualifiedName()
                  + " --help)");
          return ExitCode.USAGE.code();
        });
    cl.setExecutionExceptionHandler(
        (ex, cmd, parsed) -> {
          if (Interruption.signalled()) {
            // whatever the interrupt broke on its way out is not the error to report
            String why =
                ex instanceof InterruptedException || ex.getMessage() == null
                    ? ""
                    : ex.getMessage().lines().findFirst().orElse("");
            System.err.println(
                "solrscale: interrupted"
                    + (why.isEmpty() || why.equals("interrupted") ? "" : ": " + why));
            if (main.verbose) {
              ex.printStackTrace();
            }
            return INTERRUPTED;
          }
          if (ex instanceof SolrscaleException se) {
            System.err.println("solrscale: " + se.getMessage());
            if (main.verbose) {
              se.printStackTrace();
            }
            return se.exitCode().code();
          }
          System.err.println(
              "solrscale: unexpected error: "
                  + ex
                  + (main.verbose ? "" : " (run again with --verbose for details)"));
          if (main.verbose) {
            ex.printStackTrace();
          }
          return ExitCode.FAILED.code();
        });
    Interruption interruption = Interruption.install(Thread.currentThread());
    try {
      int code = cl.execute(args);
      return Interruption.signalled() && code == 0 ? INTERRUPTED : code;
    } catch (OutOfMemoryError e) { // what the command holds was freed as it unwound
      System.err.println(
          "solrscale: out of memory (this JVM may use "
              + Runtime.getRuntime().maxMemory() / (1 << 20)
              + " MB): give it more with "
              + "SOLRSCALE_JAVA_OPTS=-Xmx<size>, e.g. -Xmx8g, or give the command less to hold at once");
      return ExitCode.ENVIRONMENT.code();
    } finally {
      interruption.finished();
    }
  }
}
