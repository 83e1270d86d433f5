package org.solrscale.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.solrscale.results.CombinationRun;
import org.solrscale.results.StepResult;
import org.solrscale.spec.StepSpec;

/**
 * The report's section "Other steps": the summaries of the steps that are not bench, chaos,
 * distribute or capacity steps (index, restart, collection).
 */
final class OtherStepsSection extends Section {
  @Override
  String id() {
    return "other-steps";
  }

  @Override
  String title() {
    return "Other steps";
  }

  @Override
  String nav() {
    return null;
  }

  @Override
  void write() {
    Html.Table t = new Html.Table("steps", "combination", "repeat", "step", "kind", "summary");
    for (RunModel.Combination c : model.combinations()) {
      for (CombinationRun r : c.repeats()) {
        for (StepResult s : r.steps()) {
          if (s.isBench()
              || s.is(StepSpec.Chaos.class)
              || s.is(StepSpec.Distribute.class)
              || s.is(StepSpec.Capacity.class)) {
            continue;
          }
          JsonNode sum = model.run().summary(s);
          t.row(c.id(), r.repeat(), s.label(), s.kind(), sum == null ? "" : compact(sum));
        }
      }
    }
    if (t.isEmpty()) {
      note("No steps other than bench.");
    } else {
      html.append(t.render());
    }
  }

  private static String compact(JsonNode n) {
    List<String> parts = new ArrayList<>();
    n.fields()
        .forEachRemaining(
            e -> {
              if (e.getValue().isValueNode() && !e.getValue().isNull()) {
                String v =
                    e.getValue().isFloatingPointNumber()
                        ? Html.num(e.getValue().asDouble())
                        : e.getValue().asText();
                parts.add(e.getKey() + " " + v);
              }
            });
    return String.join(", ", parts);
  }
}
