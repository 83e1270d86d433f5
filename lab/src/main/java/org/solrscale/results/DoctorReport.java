package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.solrscale.spec.SolrscaleException;

/**
 * What `solrscale doctor` found (doctor.json in a run directory, or its --json): the SolrCloud it
 * looked at, the facts it read, and each finding with its level, evidence and one-line fix.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DoctorReport(
    @JsonProperty("target") String target,
    @JsonProperty("solr_version") String solrVersion,
    @JsonProperty("findings") List<Finding> findings,
    @JsonProperty("facts") JsonNode facts) {

  public static final String FILE = "doctor.json";
  public static final String ERROR = "error";
  public static final String WARNING = "warning";
  public static final String INFO = "info";

  /** One finding: level (error, warning, info), the check's id, what it is about, why, the fix. */
  public record Finding(
      @JsonProperty("level") String level,
      @JsonProperty("check") String check,
      @JsonProperty("subject") String subject,
      @JsonProperty("evidence") String evidence,
      @JsonProperty("fix") String fix) {}

  /** Whether any finding is an error (doctor exits 1 then). */
  @JsonIgnore
  public boolean hasErrors() {
    return findings.stream().anyMatch(f -> ERROR.equals(f.level()));
  }

  /** The run's doctor.json, when the run has one. */
  public static Optional<DoctorReport> read(Path runDir) {
    Path file = runDir.resolve(FILE);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of(RunDir.JSON.readValue(file.toFile(), DoctorReport.class));
    } catch (IOException e) {
      throw SolrscaleException.usage(file + " is not a doctor report: " + e.getMessage());
    }
  }

  public void write(Path runDir) {
    Path file = runDir.resolve(FILE);
    try {
      RunDir.JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), this);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot write " + file + ": " + e.getMessage());
    }
  }
}
