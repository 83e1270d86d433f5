package org.solrscale.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;

/**
 * Who sends to whom: a target (its relay's {@code host:port}) and the targets it forwards to. A
 * chain is a route of one child each; a tree gives each target up to {@code fanout}. The source's
 * own route has no address and the first targets as children.
 */
public record Route(
    @JsonProperty("address") String address, @JsonProperty("children") List<Route> children) {

  public Route {
    children = children == null ? List.of() : List.copyOf(children);
  }

  /** The source sends to the first target, each target to the next. */
  public static Route chain(List<String> targets) {
    Route next = null;
    for (int i = targets.size() - 1; i >= 0; i--) {
      next = new Route(targets.get(i), next == null ? List.of() : List.of(next));
    }
    return new Route(null, next == null ? List.of() : List.of(next));
  }

  /**
   * The source sends to the first {@code fanout} targets, each of them to the next ones, in
   * breadth-first order (a complete tree: target i forwards to targets fanout*(i+1)..).
   */
  public static Route tree(List<String> targets, int fanout) {
    if (fanout < 1) {
      throw new IllegalArgumentException("fanout must be 1 or more");
    }
    return new Route(null, subtrees(targets, fanout, -1));
  }

  private static List<Route> subtrees(List<String> targets, int fanout, int parent) {
    List<Route> out = new ArrayList<>();
    for (int k = 0; k < fanout; k++) {
      int i = (parent + 1) * fanout + k;
      if (i < targets.size()) {
        out.add(new Route(targets.get(i), subtrees(targets, fanout, i)));
      }
    }
    return out;
  }

  /** Every target of this route, this one first (when it has an address), depth first. */
  public List<String> targets() {
    List<String> out = new ArrayList<>();
    if (address != null) {
      out.add(address);
    }
    children.forEach(c -> out.addAll(c.targets()));
    return out;
  }

  /** The most bytes any one sender sends, in copies of the data: its number of children. */
  public int widest() {
    int w = children.size();
    for (Route c : children) {
      w = Math.max(w, c.widest());
    }
    return w;
  }
}
