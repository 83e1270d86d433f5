package org.solrscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.solrscale.results.DoctorReport;

/** doctor's text says what its --json says: every finding, its level, evidence and fix. */
class DoctorOutputTest {
  @Test
  void theTextSaysWhatTheJsonSays() throws Exception {
    DoctorReport r =
        new DoctorReport(
            "cluster 'lab'",
            "9.10.1",
            List.of(
                new DoctorReport.Finding(
                    "error",
                    "zk-syncLimit",
                    "ZooKeeper ensemble",
                    "syncLimit 2 x tickTime 2000 ms = 4 s, below twice the longest round trip",
                    "raise sync_limit"),
                new DoctorReport.Finding(
                    "info",
                    "zk-shares-host",
                    "ZooKeeper 127.0.0.1:2181",
                    "this machine's CPU 1 % busy over the doctor's 3.0 s window",
                    "nothing to do on one machine, where sharing is expected")),
            Terminal.JSON.readTree("{\"window_s\": 3.0}"));
    PrintStream old = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      DoctorCommand.print(r);
    } finally {
      System.setOut(old);
    }
    String text = out.toString(StandardCharsets.UTF_8);
    JsonNode json = Terminal.JSON.readTree(Terminal.JSON.writeValueAsString(r));
    assertThat(text)
        .startsWith(
            json.get("target").asText()
                + ", Solr "
                + json.get("solr_version").asText()
                + " (CPU, GC and update rates over a 3.0 s window):");
    for (JsonNode f : json.get("findings")) {
      assertThat(text)
          .contains(
              String.format(
                  "%-7s %s (%s)",
                  f.get("level").asText(), f.get("subject").asText(), f.get("check").asText()))
          .contains("        " + f.get("evidence").asText())
          .contains("        fix: " + f.get("fix").asText());
    }
    assertThat(text).contains("1 error(s), 0 warning(s), 1 note(s)");
  }
}
