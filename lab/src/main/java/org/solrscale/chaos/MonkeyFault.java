package org.solrscale.chaos;

import java.util.Random;
import org.solrscale.spec.Durations;
import org.solrscale.spec.FaultKind;
import org.solrscale.spec.StepSpec;

/**
 * monkey: seeded random faults of the kinds in the step's {@code faults}, one at a time, with
 * exponential gaps of mean {@code interval}, each lasting {@code fault_duration}, inside its {@code
 * duration} (the schedule is {@link Monkey#schedule}; targets are drawn when each fires).
 */
final class MonkeyFault implements FaultAction {
  @Override
  public void run(FaultRunner runner, StepSpec.Fault f, double at) {
    long window = Durations.parse(f.duration()).toMillis();
    Random targets = new Random(f.seed() * 31 + 7);
    for (Monkey.Planned p :
        Monkey.schedule(
            f.seed(),
            window,
            Durations.parse(f.interval()).toMillis(),
            Durations.parse(f.faultDuration()).toMillis(),
            f.faults())) {
      if (!runner.awaitUntil(at + p.atMs() / 1000.0)) {
        return;
      }
      String name = f.name() + ":" + p.kind();
      if (runner.now() + p.durationMs() / 1000.0 > at + window / 1000.0) {
        // earlier faults took longer to recover than planned: the window is over
        runner.notInjected(
            name, p.kind(), null, "the monkey's window ended while earlier faults were recovering");
        return;
      }
      FaultKind kind = FaultKind.named(p.kind()).orElseThrow();
      if (kind.inherentlyUnsafe() && !f.unsafe()) {
        // a monkey takes down a ZooKeeper majority only when told it may
        runner.notInjected(
            name, p.kind(), null, "a monkey's " + p.kind() + " needs " + runner.unsafeFix());
        continue;
      }
      if (FaultActions.of(kind) instanceof NodeFault node) {
        node.configure(f);
        runner.inject(name, node, "random", p.durationMs(), targets, f.unsafe());
      } else {
        runner.notInjected(name, p.kind(), null, "the monkey cannot draw " + p.kind());
      }
    }
  }
}
