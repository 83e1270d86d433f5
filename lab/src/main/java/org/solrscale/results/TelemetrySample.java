package org.solrscale.results;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.solrscale.spec.SolrscaleException;

/** One row of a step's telemetry.csv: a metric of one node at a second since the step began. */
public record TelemetrySample(double second, String node, String metric, double value) {

  /** The rows of telemetry.csv (second,node,metric,value); empty when there is none. */
  public static List<TelemetrySample> read(Path file) {
    if (!Files.isRegularFile(file)) {
      return List.of();
    }
    List<TelemetrySample> out = new ArrayList<>();
    int lineNo = 0;
    try (BufferedReader r = Files.newBufferedReader(file)) {
      for (String line; (line = r.readLine()) != null; ) {
        lineNo++;
        String[] c = line.split(",", -1);
        if (lineNo == 1 || line.isBlank() || c.length < 4) {
          continue;
        }
        out.add(new TelemetrySample(Double.parseDouble(c[0]), c[1], c[2], Double.parseDouble(c[3])));
      }
    } catch (NumberFormatException e) {
      throw SolrscaleException.usage(file + ":" + lineNo + ": not a number (" + e.getMessage() + ")");
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot read " + file + ": " + e.getMessage());
    }
    return out;
  }
}
