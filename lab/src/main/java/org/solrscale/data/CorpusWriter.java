package org.solrscale.data;

import java.io.Closeable;
import java.io.IOException;

/** Writes documents in one format; {@link #close()} finishes the file. */
public interface CorpusWriter extends Closeable {
  void write(Document d) throws IOException;
}
