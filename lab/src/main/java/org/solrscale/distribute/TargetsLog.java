package org.solrscale.distribute;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Each target's bytes as the relays report them, appended to targets.jsonl with the wall-clock time
 * (one JSON object a line), for the live view; then passed on. Writing is for watching only: a
 * distribution never fails because of it.
 */
public final class TargetsLog implements Consumer<Overview.Row> {
  public static final String FILE = "targets.jsonl";
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Path file;
  private final Consumer<Overview.Row> next;

  public TargetsLog(Path dir, Consumer<Overview.Row> next) {
    this.file = dir == null ? null : dir.resolve(FILE);
    this.next = next;
  }

  @Override
  public synchronized void accept(Overview.Row r) {
    if (file != null && Files.isDirectory(file.getParent())) {
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("at_ms", System.currentTimeMillis());
      line.put("shard", r.shard());
      line.put("node", r.node());
      line.put("bytes", r.bytes());
      line.put("total", r.total());
      line.put("mb_per_s", r.mbPerS());
      line.put("from", r.from());
      line.put("state", r.state());
      try {
        Files.writeString(
            file,
            JSON.writeValueAsString(line) + "\n",
            StandardOpenOption.CREATE,
            StandardOpenOption.APPEND);
      } catch (IOException e) {
        // for watching only
      }
    }
    next.accept(r);
  }
}
