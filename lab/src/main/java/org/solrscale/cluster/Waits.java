package org.solrscale.cluster;

import org.solrscale.spec.SolrscaleException;

/** Pauses between polls; an interrupt (Ctrl-C) ends the wait as a one-line failure. */
public final class Waits {
  private Waits() {}

  public static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrscaleException.failed("interrupted");
    }
  }
}
