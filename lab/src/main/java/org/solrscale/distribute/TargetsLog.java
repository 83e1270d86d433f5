package org.solrscale.distribute;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.solrscale.results.Distribution;
import org.solrscale.results.JsonLines;

/**
 * Each target's bytes as the relays report them, appended to targets.jsonl with the wall-clock time
 * (one JSON object a line), for the live view; then passed on. Writing is for watching only: a
 * distribution never fails because of it.
 */
public final class TargetsLog implements Consumer<Overview.Row> {
  public static final String FILE = "targets.jsonl";
  private final Path file;
  private final Consumer<Overview.Row> next;

  public TargetsLog(Path dir, Consumer<Overview.Row> next) {
    this.file = dir == null ? null : dir.resolve(FILE);
    this.next = next;
  }

  @Override
  public synchronized void accept(Overview.Row r) {
    write(r);
    next.accept(r);
  }

  /**
   * Each target as the distribution ended (a relay's last report may come before its last bytes):
   * its bytes received and had, of the index's, and its state.
   */
  public synchronized void finished(Distribution d) {
    for (Distribution.ShardRun s : d.shards()) {
      for (Distribution.Target t : s.targets()) {
        write(
            new Overview.Row(
                d.seconds(),
                s.shard(),
                t.node(),
                t.bytesReceived() + t.bytesHad(),
                s.indexBytes() == null ? 0 : s.indexBytes(),
                0,
                null,
                t.state()));
      }
    }
  }

  private void write(Overview.Row r) {
    if (file != null) { // the first report comes once the work has begun: the folder may be made
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
        JsonLines.append(file, line);
      } catch (IOException e) {
        // for watching only
      }
    }
  }
}
