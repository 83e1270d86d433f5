package org.solrscale.data;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicLong;

/** Counts the bytes that reach the file (after compression), for size-bounded parts. */
final class CountingOutputStream extends FilterOutputStream {
  private final AtomicLong count;

  CountingOutputStream(OutputStream out, AtomicLong count) {
    super(out);
    this.count = count;
  }

  @Override
  public void write(int b) throws IOException {
    out.write(b);
    count.incrementAndGet();
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
    count.addAndGet(len);
  }
}
