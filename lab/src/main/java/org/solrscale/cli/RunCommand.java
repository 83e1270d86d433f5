package org.solrscale.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.solrscale.cluster.Connect;
import org.solrscale.cluster.ConnectOptions;
import org.solrscale.scenario.ScenarioRunner;
import org.solrscale.spec.ScenarioLoader;
import org.solrscale.spec.SolrscaleException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `solrscale run SCENARIO`: every combination of a scenario's matrix, resumable. */
@Command(
    name = "run",
    description =
        "Run a scenario (cluster, data, steps, matrix, repeat) into a results directory, "
            + "write its report and print a summary; run it again with the same --out to resume after an interruption. "
            + "Exit code 1 when a repeat failed (e.g. a bench step whose requests failed).")
final class RunCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "SCENARIO", description = "Scenario file (YAML).")
  Path scenario;

  @Option(names = "--out", description = "Results directory (default: runs/NAME).")
  Path out;

  @Option(
      names = "--zk",
      paramLabel = "HOST:PORT[,HOST:PORT...][/CHROOT]",
      description =
          "Run the steps against this SolrCloud instead of deploying the scenario's cluster: its "
              + "collections must exist and are used as they are; restart, fault and collection steps and "
              + "cluster.* or collection.* matrix keys are refused (they need a cluster solrscale started).")
  String zk;

  @Option(
      names = "--url",
      paramLabel = "URL[,URL...]",
      description =
          "The same, given by some of its nodes' base URLs, e.g. http://127.0.0.1:8983/solr.")
  String url;

  @Option(
      names = "--user",
      paramLabel = "USER",
      description =
          "With --zk/--url: the Solr user for BasicAuth, its password from SOLRSCALE_PASSWORD or"
              + " --password-file (a scenario's own cluster is always used as its admin).")
  String user;

  @Option(
      names = "--password-file",
      paramLabel = "FILE",
      description = "File whose first line is the password of --user.")
  Path passwordFile;

  @Option(
      names = "--truststore",
      paramLabel = "FILE",
      description =
          "With --zk/--url: PKCS12 trust store for its HTTPS (password: SOLRSCALE_TRUSTSTORE_PASSWORD).")
  Path truststore;

  @Option(
      names = "--profile",
      description =
          "Record every Solr node with Java Flight Recorder during each index, bench and chaos"
              + " step (as if each said profile: true); the report gets a Diagnosis section.")
  boolean profile;

  @Mixin LiveOption liveView;

  @Override
  public Integer call() throws Exception {
    boolean external = zk != null || url != null;
    if (!external && (user != null || passwordFile != null)) {
      throw SolrscaleException.usage(
          "--user and --password-file are for --zk and --url: solrscale uses the scenario's own"
              + " cluster as its admin");
    }
    ScenarioLoader.Loaded loaded = ScenarioLoader.load(scenario, external);
    String name = loaded.base().name() != null ? loaded.base().name() : "scenario";
    Path dir = out != null ? out : Path.of("runs", name);
    ScenarioRunner runner =
        new ScenarioRunner(Terminal.home(), dir, Terminal.progress(), new Version().getVersion()[0])
            .profiling(profile);
    try (AutoCloseable view = liveView.start(dir, "--out")) {
      if (!external) {
        return RunSummary.print(dir, runner.run(loaded, scenario));
      }
      ConnectOptions options = new ConnectOptions(null, zk, url, user, passwordFile, truststore);
      ScenarioRunner.Outcome o =
          Connect.open(options, Terminal.home(), Terminal.progress())
              .withExternal(cluster -> runner.against(cluster).run(loaded, scenario));
      return RunSummary.print(dir, o);
    }
  }
}
