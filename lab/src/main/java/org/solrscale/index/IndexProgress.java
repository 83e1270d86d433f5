package org.solrscale.index;

/**
 * Where a bulk load stands: what has been accepted and rejected, how much of the input is read
 * ({@code totalBytes} is the size on disk of all inputs, so the share read is exact for plain and
 * gzip files alike), and the time since it began.
 */
public record IndexProgress(
    long accepted, long rejected, long bytesRead, long totalBytes, double seconds, boolean done) {

  public double docsPerSec() {
    return seconds > 0 ? accepted / seconds : 0;
  }

  public double mbPerSec() {
    return seconds > 0 ? bytesRead / 1e6 / seconds : 0;
  }

  /** Seconds left at the rate so far, or -1 when it cannot be told yet. */
  public double etaSeconds() {
    return bytesRead > 0 && totalBytes > 0 ? seconds * (totalBytes - bytesRead) / bytesRead : -1;
  }
}
