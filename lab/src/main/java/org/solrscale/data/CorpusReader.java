package org.solrscale.data;

import java.io.Closeable;
import java.io.IOException;

/** Streams the documents of one file, in constant memory. */
public interface CorpusReader extends Closeable {
  /** The next document or failure, or null at the end of the input. */
  Item next() throws IOException;
}
