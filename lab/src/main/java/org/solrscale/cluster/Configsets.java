package org.solrscale.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import org.solrscale.spec.CollectionSpec;
import org.solrscale.spec.SolrscaleException;

/** Finds the configset a collection asks for: the built-in default, or a user directory, zipped. */
public final class Configsets {
  /** The files of configsets/default/conf, shipped inside solrscale. */
  static final List<String> DEFAULT_FILES =
      List.of("solrconfig.xml", "schema.xml", "stopwords.txt", "synonyms.txt");

  public static final String DEFAULT_NAME = "solrscale-default";

  private Configsets() {}

  /** The name the collection's configset is uploaded under. */
  public static String nameFor(CollectionSpec spec) {
    return spec.usesDefaultConfigset() ? DEFAULT_NAME : spec.name() + "-config";
  }

  public static byte[] zipFor(CollectionSpec spec) {
    if (!spec.usesDefaultConfigset()) {
      return SolrAdmin.zipDirectory(Path.of(spec.configset()));
    }
    return defaultZip();
  }

  /** solrscale's own configset (dynamic fields for everything it writes), zipped. */
  public static byte[] defaultZip() {
    return SolrAdmin.zip(DEFAULT_FILES, f -> f, Configsets::readDefault);
  }

  private static byte[] readDefault(String file) {
    String resource = "/solrscale/configsets/default/conf/" + file;
    try (InputStream in = Configsets.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw SolrscaleException.environment("this solrscale build lacks " + resource);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot read " + resource + ": " + e.getMessage());
    }
  }
}
