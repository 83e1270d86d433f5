package org.solrscale.distribute;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.solrscale.results.Route;

/** The start of a distribution: the leader's pinned files, sent to the first targets of a route. */
public final class Source {
  private Source() {}

  /**
   * Sends {@code files} from {@code indexDir} along {@code route} in chunks of {@code chunk} bytes;
   * returns the targets that failed (their own targets were served around them).
   */
  public static List<String> send(
      Path indexDir, List<IndexFile> files, int chunk, Route route, Events events)
      throws IOException, InterruptedException {
    return send(indexDir, files, chunk, route, events, 0);
  }

  /** As above, sending at most {@code bytesPerSecond} to each first target (0: no cap). */
  public static List<String> send(
      Path indexDir,
      List<IndexFile> files,
      int chunk,
      Route route,
      Events events,
      long bytesPerSecond)
      throws IOException, InterruptedException {
    try (Store store = new Store(indexDir, files, chunk, true)) {
      return new Forwarder(store, events, bytesPerSecond).serve(route.children());
    }
  }
}
