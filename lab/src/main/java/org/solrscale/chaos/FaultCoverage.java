package org.solrscale.chaos;

import java.util.ArrayList;
import java.util.List;
import org.solrscale.results.ChaosVerdict;
import org.solrscale.results.FaultRecord;
import org.solrscale.spec.FaultKind;
import org.solrscale.spec.StepSpec;

/**
 * Whether a chaos run's faults made it a test: every fault asked for was injected on its target,
 * held for its duration or was healed as planned, and writes were acknowledged while the faults
 * held. A run without them has nothing to pass: {@link #untested} says why, one reason a line.
 */
final class FaultCoverage {
  private FaultCoverage() {}

  /**
   * Why the faults asked for ({@code requested}; none: the workload and checks alone) did not make
   * a test, judged on what they did ({@code records}) and the writes while they held ({@code
   * writesDuring}); empty when they did.
   */
  static List<String> untested(
      List<StepSpec.Fault> requested, List<FaultRecord> records, ChaosVerdict.Counts writesDuring) {
    List<String> out = new ArrayList<>();
    boolean anyInjected = false;
    for (StepSpec.Fault f : requested) {
      List<FaultRecord> own =
          records.stream()
              .filter(r -> r.name().equals(f.name()) || r.name().startsWith(f.name() + ":"))
              .toList();
      String what = "fault '" + f.name() + "' (" + describe(f) + ")";
      if (f.fault().equals(FaultKind.MONKEY.id())) {
        // a monkey is a test when some draw was injected; a draw it could not take is a note
        List<FaultRecord> injected = own.stream().filter(FaultRecord::injected).toList();
        if (injected.isEmpty()) {
          out.add(
              what
                  + " injected nothing: "
                  + (own.isEmpty()
                      ? "it drew no fault in its " + f.duration() + " window"
                      : why(own.get(0))));
        }
        injected.forEach(r -> held(what + ", " + r.fault(), r, out));
        anyInjected |= !injected.isEmpty();
        continue;
      }
      if (own.isEmpty()) {
        out.add(what + " left no record of what it did");
      }
      for (FaultRecord r : own) {
        if (!r.injected()) {
          out.add(what + " was not injected: " + why(r));
        } else {
          anyInjected = true;
          held(what, r, out);
        }
      }
    }
    if (anyInjected && writesDuring.ok() == 0) {
      out.add(
          "no write was acknowledged while the faults held ("
              + writesDuring.sent()
              + " sent, "
              + writesDuring.failed()
              + " failed, "
              + writesDuring.unknown()
              + " unanswered), so none could be lost to them");
    }
    return out;
  }

  /** Adds why an injected fault did not hold as planned, if it did not. */
  private static void held(String what, FaultRecord r, List<String> out) {
    String note = r.note() == null ? "" : r.note();
    if (note.startsWith("failed:")) {
      out.add(what + " did not hold: " + note);
    } else if (note.contains("healed early")) {
      out.add(what + " did not hold for its duration: " + note);
    }
  }

  private static String why(FaultRecord r) {
    String note = r.note() == null ? "no reason recorded" : r.note();
    return note.startsWith("not injected: ") ? note.substring(14) : note;
  }

  private static String describe(StepSpec.Fault f) {
    return f.fault() + (f.target() == null ? "" : " " + f.target());
  }
}
