package org.solrscale.scenario;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.Target;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.StepSpec;

/**
 * What a step runs with: the SolrCloud, the run's corpus and queries, the collection steps use when
 * they name none, the scenario's folder (for relative files), where its files go, and the faults
 * that run alongside it, and what limits steps changed on the hosts in this repeat.
 */
record StepRun(
    Target target,
    DataPrep.Data data,
    String defaultCollection,
    Path scenarioDir,
    Consumer<String> progress,
    Path dir,
    List<StepSpec.Fault> faults,
    HostChanges changes) {

  /** The step's collection, or the scenario's first. */
  String collection(String named) {
    return named != null ? named : defaultCollection;
  }

  /** Whether faults run alongside the step. */
  boolean faulted() {
    return !faults.isEmpty();
  }

  /**
   * The cluster solrscale started (restarts, collection steps and faults need one; checked before
   * the run).
   */
  Cluster cluster() {
    return target
        .cluster()
        .orElseThrow(
            () ->
                SolrscaleException.usage(
                    "this step needs a cluster solrscale " + "started, not " + target.describe()));
  }

  /** A file a step names: as written when absolute, else in the scenario's folder. */
  String file(String f) {
    return DataPrep.resolve(scenarioDir, f);
  }
}
