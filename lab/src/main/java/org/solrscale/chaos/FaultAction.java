package org.solrscale.chaos;

import java.util.List;
import org.solrscale.results.ChaosVerdict;
import org.solrscale.results.FaultRecord;
import org.solrscale.spec.StepSpec;

/**
 * What one kind of fault does (its name and flags are in {@code spec.FaultKind}): how a scheduled
 * fault step runs, and what Solr is documented to do while it lasts. One class per kind, named in
 * {@link FaultActions}.
 */
interface FaultAction {
  /** Runs the fault step {@code f}, due {@code at} seconds after the step began, to its end. */
  void run(FaultRunner runner, StepSpec.Fault f, double at);

  /**
   * The behaviours Solr should show while this fault held ({@code from}..{@code to}, seconds),
   * judged on the history; none by default.
   */
  default List<ChaosVerdict.Behaviour> expected(
      HistoryStats stats, FaultRecord f, Topology before, double from, double to) {
    return List.of();
  }
}
