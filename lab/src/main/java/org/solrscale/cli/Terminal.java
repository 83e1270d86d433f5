package org.solrscale.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.solrscale.runtime.SolrscaleHome;

/** What every command shares: where solrscale lives, progress lines on stderr, JSON on stdout. */
final class Terminal {
  static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private Terminal() {}

  static SolrscaleHome home() {
    return SolrscaleHome.fromEnvironment();
  }

  /** Progress goes to stderr so that stdout stays clean for --json. */
  static Consumer<String> progress() {
    return line -> System.err.println("  " + line);
  }

  static void printJson(Object value) {
    try {
      System.out.println(JSON.writeValueAsString(value));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Where a command's files went, as an absolute path: on stdout after its text, on stderr when
   * stdout holds its --json.
   */
  static void printFiles(Path where, boolean json) {
    (json ? System.err : System.out).println("files: " + where.toAbsolutePath().normalize());
  }
}
