package org.solrscale.scenario;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import org.solrscale.data.Format;
import org.solrscale.data.Inputs;
import org.solrscale.data.QueryDeriver;
import org.solrscale.data.QueryOptions;
import org.solrscale.data.Synth;
import org.solrscale.data.SynthOptions;
import org.solrscale.load.QueryFile;
import org.solrscale.load.Workload;
import org.solrscale.spec.ClusterSpec;
import org.solrscale.spec.CollectionSpec;
import org.solrscale.spec.ExitCode;
import org.solrscale.spec.FaultKind;
import org.solrscale.spec.ScenarioLoader;
import org.solrscale.spec.ScenarioSpec;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.StepSpec;
import org.solrscale.spec.YamlPlaces;

/**
 * What a scenario needs from outside its text, checked before any directory or process is made: the
 * corpus and query files it names exist and read, the synth and derive_queries settings are valid,
 * and the derived queries fit a synthetic corpus (tried on a small sample of it, so a facet field
 * the corpus does not have is found in a second, not after the cluster is up).
 */
final class Preflight {
  /** Documents of the sample a synthetic corpus's derived queries are tried on. */
  static final long SAMPLE_DOCS = 300;

  private Preflight() {}

  static void check(ScenarioLoader.Loaded loaded, Path scenarioDir) {
    ScenarioSpec base = loaded.base();
    YamlPlaces places = loaded.places();
    ScenarioSpec.DataSpec d = base.data();
    for (int i = 0; i < d.files().size(); i++) {
      String f = DataPrep.resolve(scenarioDir, d.files().get(i));
      at(places, "/data/files/" + i, () -> Inputs.expand(List.of(f)));
    }
    for (int i = 0; i < d.queries().size(); i++) {
      Path q = Path.of(DataPrep.resolve(scenarioDir, d.queries().get(i)));
      at(places, "/data/queries/" + i, () -> QueryFile.read(q));
    }
    SynthOptions synth = d.synth() == null ? null : DataPrep.synthOptions(d.synth(), places);
    boolean derives = d.queries().isEmpty() && (synth != null || !d.files().isEmpty());
    QueryOptions queries = derives ? DataPrep.queryOptions(d.deriveQueries(), places) : null;
    if (derives && synth != null) {
      trySample(synth, queries, places);
    }
    for (ScenarioLoader.Combination c : loaded.combinations()) {
      List<StepSpec> steps = c.spec().steps();
      for (int i = 0; i < steps.size(); i++) {
        String at = "/steps/" + i + "/" + steps.get(i).kind();
        if (steps.get(i) instanceof StepSpec.Fault f) {
          String why = knownRefusal(f, c.spec(), i);
          if (why != null) {
            throw SolrscaleException.usage(
                places.where(at) + ": fault step '" + f.name() + "': " + why);
          }
        }
        if (steps.get(i) instanceof StepSpec.Bench b && b.queries() != null) {
          at(places, at + "/queries", () -> Workload.parseMix(b.queries(), scenarioDir));
        }
        String replay =
            steps.get(i) instanceof StepSpec.Bench b
                ? b.replay()
                : steps.get(i) instanceof StepSpec.Capacity k ? k.replay() : null;
        if (replay != null) {
          Path log = Path.of(DataPrep.resolve(scenarioDir, replay));
          at(places, at + "/replay", () -> org.solrscale.data.LoggedRequest.read(log, "replay"));
        }
        if (steps.get(i) instanceof StepSpec.Index x && !x.files().isEmpty()) {
          at(
              places,
              at + "/files",
              () ->
                  Inputs.expand(
                      x.files().stream().map(f -> DataPrep.resolve(scenarioDir, f)).toList()));
        }
      }
    }
  }

  /**
   * Why the safety rules will certainly refuse fault step {@code i} of {@code spec} when it fires,
   * or null when they may let it through: a leader (or any node of a one-node cluster) taken down
   * while its shards have one replica each, a ZooKeeper server killed in an ensemble of fewer than
   * 3. What depends on where Solr places replicas is left to the check before the step runs. Also
   * null after a collection step, which may change the replicas.
   */
  static String knownRefusal(StepSpec.Fault f, ScenarioSpec spec, int i) {
    if (f.unsafe() || f.target() != null && f.target().startsWith("replicas-of:")) {
      return null;
    }
    List<StepSpec> steps = spec.steps();
    if (steps.subList(0, i).stream().anyMatch(s -> s instanceof StepSpec.Collection)) {
      return null;
    }
    FaultKind kind = FaultKind.named(f.fault()).orElse(null);
    if (kind == FaultKind.KILL || kind == FaultKind.STOP || kind == FaultKind.PAUSE) {
      String name = faultedCollection(steps, i, spec.cluster());
      CollectionSpec col =
          spec.cluster().collections().stream()
              .filter(x -> x.name().equals(name))
              .findFirst()
              .orElse(null);
      if (col == null || col.replicas().total() >= 2) {
        return null;
      }
      String target = f.target() == null ? "random" : f.target();
      boolean oneNode = spec.cluster().nodeCount() == 1 && !target.startsWith("zk");
      if (target.startsWith("leader-of:") || oneNode) {
        return "collection "
            + name
            + " has 1 replica per shard, so "
            + f.fault()
            + " "
            + target
            + " would take down the last live replica of "
            + (target.startsWith("leader-of:") ? target.substring(10) : "every shard")
            + "; "
            + f.fault()
            + " needs 2 replicas per shard (replicas: 2), so one stays up, or set unsafe: true";
      }
    }
    int zk = spec.cluster().zookeeper().servers();
    if (kind == FaultKind.ZK_KILL && zk > 0 && zk < 3) {
      return "the ensemble has "
          + zk
          + " ZooKeeper server"
          + (zk == 1 ? "" : "s")
          + ", so zk-kill would leave no majority up; zk-kill needs an ensemble of 3"
          + " (zookeeper: {servers: 3}), or set unsafe: true";
    }
    return null;
  }

  /**
   * The collection fault step {@code i} aims at: that of the chaos step it runs beside, else the
   * first.
   */
  private static String faultedCollection(List<StepSpec> steps, int i, ClusterSpec cluster) {
    for (StepSpec s : steps.subList(i + 1, steps.size())) {
      if (s instanceof StepSpec.Chaos ch && ch.collection() != null) {
        return ch.collection();
      }
      if (!(s instanceof StepSpec.Fault)) {
        break;
      }
    }
    return cluster.collections().isEmpty() ? null : cluster.collections().get(0).name();
  }

  /**
   * Derives queries from a small synthetic sample with the same settings; its refusal is the
   * scenario's.
   */
  private static void trySample(SynthOptions synth, QueryOptions queries, YamlPlaces places) {
    Path dir = null;
    try {
      dir = Files.createTempDirectory("solrscale-preflight");
      Path corpus = dir.resolve("sample.jsonl");
      Synth.write(
          new SynthOptions(
              Math.min(SAMPLE_DOCS, synth.docs()),
              synth.seed(),
              synth.vocabulary(),
              synth.zipf(),
              synth.bodyMin(),
              synth.bodyMax(),
              synth.facets()),
          corpus,
          Format.JSONL);
      Path out = dir.resolve("queries.txt");
      try {
        DataPrep.scenarioKeys(
            places,
            "/data/derive_queries",
            "data.derive_queries.",
            () -> QueryDeriver.derive(List.of(corpus), null, queries, out));
      } catch (SolrscaleException e) { // the sample's file name means nothing to the user
        throw new SolrscaleException(
            e.exitCode(),
            e.getMessage()
                .replace(corpus.toString(), "the synthetic corpus (data.synth)")
                .replace(corpus.getFileName().toString(), "the synthetic corpus (data.synth)")
                .replaceAll("none of the [0-9,]+ documents", "none of the documents"));
      }
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot make a temporary directory: " + e.getMessage());
    } finally {
      if (dir != null) {
        try (var walk = Files.walk(dir)) {
          for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
            Files.deleteIfExists(p);
          }
        } catch (IOException ignored) {
          // a temporary directory: the system cleans it
        }
      }
    }
  }

  /** Runs a check; its usage error is placed at the setting it is about. */
  private static <T> T at(YamlPlaces places, String pointer, Supplier<T> check) {
    try {
      return check.get();
    } catch (SolrscaleException e) {
      if (e.exitCode() != ExitCode.USAGE) {
        throw e;
      }
      throw SolrscaleException.usage(places.where(pointer) + ": " + e.getMessage());
    }
  }
}
