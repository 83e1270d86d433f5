package org.solrscale.chaos;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.solrscale.spec.SolrscaleException;

/**
 * The history file (JSON Lines, one {@link HistoryEvent} a line): appended by many threads while a
 * chaos run goes on, read back as a stream by the checkers, so its size never matters.
 */
public final class History implements AutoCloseable {
  private static final ObjectMapper JSON =
      new ObjectMapper().disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

  private final Path file;
  private final BufferedWriter out;

  public History(Path file) {
    this.file = file;
    try {
      out = Files.newBufferedWriter(file);
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot write the history " + file + ": " + e.getMessage());
    }
  }

  private long flushedAt = System.nanoTime();

  public synchronized void append(HistoryEvent e) {
    try {
      out.write(JSON.writeValueAsString(e));
      out.write('\n');
      if (System.nanoTime() - flushedAt > 1_000_000_000L) { // for the live view, once a second
        out.flush();
        flushedAt = System.nanoTime();
      }
    } catch (IOException ex) {
      throw SolrscaleException.environment(
          "cannot write the history " + file + ": " + ex.getMessage());
    }
  }

  /** Feeds every event of a history file to {@code each}, in order. */
  public static void read(Path file, Consumer<HistoryEvent> each) {
    try (MappingIterator<HistoryEvent> it =
        JSON.readerFor(HistoryEvent.class).readValues(file.toFile())) {
      while (it.hasNext()) {
        each.accept(it.next());
      }
    } catch (IOException | RuntimeException e) {
      throw SolrscaleException.usage(
          "cannot read the history "
              + file
              + ": "
              + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
    }
  }

  @Override
  public synchronized void close() {
    try {
      out.close();
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot finish the history " + file + ": " + e.getMessage());
    }
  }
}
