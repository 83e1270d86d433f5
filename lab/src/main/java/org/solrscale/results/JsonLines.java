package org.solrscale.results;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends one JSON object a line to a run file as events happen (faults.jsonl, probes.jsonl,
 * targets.jsonl), for the live view: each line is written whole with the folder made if needed.
 */
public final class JsonLines {
  private static final ObjectMapper JSON = new ObjectMapper();

  private JsonLines() {}

  /** Appends {@code value} as one line; the error, if any, for the caller to judge. */
  public static void append(Path file, Object value) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(
        file,
        JSON.writeValueAsString(value) + "\n",
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
  }
}
