package org.solrscale.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import org.solrscale.spec.StepSpec;

/** What runs one kind of step; registered once in {@link StepActions}. */
interface StepAction<S extends StepSpec> {
  /** Runs the step, its files going to {@code run.dir()}; returns its summary, or null. */
  JsonNode run(S step, StepRun run) throws InterruptedException;

  /** Whether it injects the faults that run alongside it itself (chaos), not around it. */
  default boolean takesFaults() {
    return false;
  }
}
