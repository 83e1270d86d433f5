package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.nio.file.Path;
import java.util.List;

/** One row of a step's telemetry.csv: a metric of one node at a second since the step began. */
@JsonPropertyOrder({"second", "node", "metric", "value"})
public record TelemetrySample(
    @JsonProperty("second") double second,
    @JsonProperty("node") String node,
    @JsonProperty("metric") String metric,
    @JsonProperty("value") double value) {

  /** The file's one definition, for the scraper and every reader. */
  public static final CsvTable<TelemetrySample> TABLE = CsvTable.of(TelemetrySample.class);

  /** The rows of telemetry.csv; empty when there is none. */
  public static List<TelemetrySample> read(Path file) {
    return TABLE.read(file);
  }
}
