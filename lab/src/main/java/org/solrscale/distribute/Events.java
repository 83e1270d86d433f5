package org.solrscale.distribute;

/**
 * What a relay or the source tells whoever watches the transfer (the coordinator reads these as
 * JSON lines from each relay's output).
 */
public interface Events {
  /** A new upstream connected: its address as this end sees it. */
  default void upstream(String from) {}

  /** A chunk failed its hash and was asked for again. */
  default void resent(String file, long offset) {}

  /** A target this one sends to failed; its own targets are taken over. */
  default void childFailed(String child, String why) {}

  /** A target this one sends to has everything, verified. */
  default void childDone(String child) {}

  Events NONE = new Events() {};
}
