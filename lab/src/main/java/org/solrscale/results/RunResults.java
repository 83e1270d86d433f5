package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** results.json: every (combination, repeat) of a run and what each of its steps measured. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RunResults(
    @JsonProperty("scenario") String scenario,
    @JsonProperty("combinations") List<CombinationRun> combinations) {

  public RunResults {
    combinations = combinations == null ? List.of() : List.copyOf(combinations);
  }

  /** The repeats of each combination id, in the order the ids first appear. */
  public Map<String, List<CombinationRun>> byId() {
    Map<String, List<CombinationRun>> out = new LinkedHashMap<>();
    for (CombinationRun c : combinations) {
      out.computeIfAbsent(c.id(), k -> new ArrayList<>()).add(c);
    }
    return out;
  }
}
