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

  public long bytesOut() {
    return bytesOut;
  }
}
