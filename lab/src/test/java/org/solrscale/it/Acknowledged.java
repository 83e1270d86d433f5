package org.solrscale.it;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.solrscale.chaos.History;

/** The ids of a chaos history's acknowledged adds, for tests that count them independently. */
final class Acknowledged {
  private Acknowledged() {}

  static List<String> ids(Path history) throws Exception {
    List<String> acked = new ArrayList<>();
    History.read(
        history,
        e -> {
          if (e.acknowledgedAdd()) {
            acked.addAll(e.ids());
          }
        });
    return acked;
  }
}
