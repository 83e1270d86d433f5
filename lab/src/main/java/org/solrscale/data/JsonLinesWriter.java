package org.solrscale.data;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;

/** One JSON object per line. */
final class JsonLinesWriter implements CorpusWriter {
  private final JsonGenerator g;

  JsonLinesWriter(OutputStream out) throws IOException {
    this.g = new JsonFactory().createGenerator(out);
    g.setRootValueSeparator(null);
  }

  @Override
  public void write(Document d) throws IOException {
    JsonDocuments.write(g, d);
    g.writeRaw('\n');
  }

  @Override
  public void close() throws IOException {
    g.close();
  }
}
