package org.solrscale.live;

/** Whether a node served, as a telemetry sample tells it. */
final class NodeState {
  private NodeState() {}

  /**
   * 1 (up) or 0 (down) when the sample tells it, else null: a Solr node's scrape that failed
   * (scrape_errors) is down, one that gave its heap is up; a ZooKeeper's serving is its word.
   */
  static Double up(StepFeed.Sample s) {
    return switch (s.metric()) {
      case "scrape_errors" -> 0.0;
      case "heap_used" -> 1.0;
      case "serving" -> s.value() > 0 ? 1.0 : 0.0;
      default -> null;
    };
  }
}
