package org.solrscale.spec;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The Collections API operations a scenario's collection step can run. */
public enum CollectionOp {
  CREATE("create"),
  DELETE("delete"),
  SPLIT_SHARD("split-shard"),
  ADD_REPLICA("add-replica");

  /** The names as written, in this order. */
  public static final List<String> NAMES =
      Arrays.stream(values()).map(CollectionOp::toString).toList();

  private final String written;

  CollectionOp(String written) {
    this.written = written;
  }

  /** The operation written {@code value}, if there is one. */
  public static Optional<CollectionOp> named(String value) {
    return Arrays.stream(values()).filter(o -> o.written.equals(value)).findFirst();
  }

  @JsonValue
  @Override
  public String toString() {
    return written;
  }
}
