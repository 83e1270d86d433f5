package org.solrscale.data;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A JSON array of objects, one per line. The brackets are written raw and the documents as root
 * values separated by ",\n", so nested arrays (multi-valued fields) stay on their line.
 */
final class JsonArrayWriter implements CorpusWriter {
  private final JsonGenerator g;

  JsonArrayWriter(OutputStream out) throws IOException {
    this.g = new JsonFactory().createGenerator(out);
    g.setRootValueSeparator(new SerializedString(",\n"));
    g.writeRaw("[\n");
  }

  @Override
  public void write(Document d) throws IOException {
    JsonDocuments.write(g, d);
  }

  @Override
  public void close() throws IOException {
    g.writeRaw("\n]\n");
    g.close();
  }
}
