package org.solrscale.data;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;

/** What a corpus operation did: documents read and written, and every input that was not one. */
public final class CorpusStats {
  /** How many problems are kept with their place; the rest are only counted. */
  static final int KEPT_PROBLEMS = 20;

  @JsonProperty("read")
  long read;

  @JsonProperty("written")
  long written;

  @JsonProperty("bad")
  long bad;

  @JsonProperty("files_written")
  List<String> filesWritten = new ArrayList<>();

  @JsonProperty("problems")
  List<String> problems = new ArrayList<>();

  @JsonProperty("bytes_in")
  long bytesIn;

  @JsonProperty("bytes_out")
  long bytesOut;

  @JsonProperty("seconds")
  double seconds;

  /** Inputs that held no document and nothing else to report (an empty file, say). */
  @JsonProperty("empty_inputs")
  List<String> emptyInputs = new ArrayList<>();

  void bad(Item item) {
    bad++;
    if (problems.size() < KEPT_PROBLEMS) {
      problems.add(item.where() + ": " + item.error());
    }
  }

  public long read() {
    return read;
  }

  public long written() {
    return written;
  }

  public long bad() {
    return bad;
  }

  public List<String> filesWritten() {
    return filesWritten;
  }

  public List<String> problems() {
    return problems;
  }

  public List<String> emptyInputs() {
    return emptyInputs;
  }

  public double seconds() {
    return seconds;
  }

  public long bytesIn() {
    return bytesIn;
  }

  /** The bytes of the documents written, before any gzip compression. */
  public long bytesOut() {
    return bytesOut;
  }

  /**
   * What the files written take on disk (compressed when they end .gz), as they are now; beside
   * {@link #bytesOut()}, which counts the documents before compression.
   */
  @JsonProperty("bytes_on_disk")
  public long bytesOnDisk() {
    long sum = 0;
    for (String f : filesWritten) {
      try {
        sum += java.nio.file.Files.size(java.nio.file.Path.of(f));
      } catch (java.io.IOException gone) {
        // a file moved away since: it takes nothing here
      }
    }
    return sum;
  }

  /** Whether any file written is gzip-compressed. */
  public boolean gzipped() {
    return filesWritten.stream().anyMatch(f -> f.endsWith(".gz"));
  }
}
