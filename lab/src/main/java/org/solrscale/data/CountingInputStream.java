package org.solrscale.data;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicLong;

/** Counts the bytes read from a file (before decompression), for progress and ETA. */
final class CountingInputStream extends FilterInputStream {
  private final AtomicLong count;

  CountingInputStream(InputStream in, AtomicLong count) {
    super(in);
    this.count = count;
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b >= 0) {
      count.incrementAndGet();
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = in.read(b, off, len);
    if (n > 0) {
      count.addAndGet(n);
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    long s = in.skip(n);
    count.addAndGet(s);
    return s;
  }
}
