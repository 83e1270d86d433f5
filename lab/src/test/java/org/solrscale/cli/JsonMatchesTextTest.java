package org.solrscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data commands print the same figures as text and with --json: each runs twice in this JVM on
 * the same input, and every count and size of the JSON appears in the text as it is printed there.
 */
class JsonMatchesTextTest {
  @TempDir Path dir;

  private record Both(String text, JsonNode json) {}

  private static String out(String... args) {
    PrintStream old = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      assertThat(Main.run(args)).as(String.join(" ", args)).isZero();
      return out.toString(StandardCharsets.UTF_8);
    } finally {
      System.setOut(old);
    }
  }

  /** Runs args writing to {@code file} as text, then with --json writing to a twin of it. */
  private Both both(String file, String... args) throws Exception {
    List<String> a = new ArrayList<>(List.of(args));
    a.addAll(List.of("-o", dir.resolve(file).toString()));
    String text = out(a.toArray(String[]::new));
    a.set(a.size() - 1, dir.resolve("json-" + file).toString());
    a.add("--json");
    JsonNode json = Terminal.JSON.readTree(out(a.toArray(String[]::new)));
    return new Both(text, json);
  }

  private static String mb(JsonNode n) {
    return String.format(Locale.ROOT, "%.1f MB", n.asLong() / 1e6);
  }

  private Path corpus() throws Exception {
    Path in = dir.resolve("in.jsonl");
    if (!Files.exists(in)) {
      out("data", "synth", "--docs", "300", "--seed", "3", "-o", in.toString());
    }
    return in;
  }

  @Test
  void synthGzipSaysBothSizes() throws Exception {
    Both b = both("s.jsonl.gz", "data", "synth", "--docs", "300", "--seed", "3");
    assertThat(b.text())
        .contains("wrote " + b.json().get("written").asLong() + " documents")
        .contains(mb(b.json().get("bytes_out")) + " uncompressed")
        .contains(mb(b.json().get("bytes_on_disk")) + " gzip on disk")
        .contains(dir.resolve("s.jsonl.gz").toAbsolutePath().toString());
    assertThat(b.json().get("bytes_on_disk").asLong())
        .isLessThan(b.json().get("bytes_out").asLong());
  }

  @Test
  void convertSampleAndSplitSayWhatTheyReadAndWrote() throws Exception {
    String in = corpus().toString();
    for (Both b :
        List.of(
            both("c.csv", "data", "convert", in),
            both("sm.jsonl", "data", "sample", in, "--random", "7"),
            both("parts", "data", "split", in, "--parts", "2"))) {
      JsonNode j = b.json();
      assertThat(b.text())
          .contains("read " + j.get("read").asLong() + " documents")
          .contains(mb(j.get("bytes_in")) + " on disk")
          .contains("wrote " + j.get("written").asLong() + " (" + mb(j.get("bytes_on_disk")) + ")");
    }
  }

  @Test
  void queriesSayHowManyOfEachKind() throws Exception {
    Both b = both("q.txt", "data", "queries", corpus().toString(), "--count", "70");
    JsonNode j = b.json();
    long total = 0;
    for (JsonNode n : j.get("queries")) {
      total += n.asLong();
    }
    assertThat(b.text())
        .contains("wrote " + total + " requests")
        .contains("from " + j.get("documents").asLong() + " documents");
    j.get("queries")
        .fields()
        .forEachRemaining(
            e -> assertThat(b.text()).contains(e.getKey() + " " + e.getValue().asLong()));
  }

  @Test
  void cleanCountsWhatItRepaired() throws Exception {
    Both b = both("cl.jsonl", "data", "clean", corpus().toString());
    JsonNode j = b.json();
    assertThat(b.text())
        .contains(mb(j.get("bytes_in")))
        .contains("replaced by U+FFFD: " + j.get("invalid_utf8").asLong())
        .contains("removed: " + j.get("invalid_xml_chars").asLong());
  }
}
