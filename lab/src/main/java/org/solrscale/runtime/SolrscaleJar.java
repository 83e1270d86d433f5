package org.solrscale.runtime;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.solrscale.spec.SolrscaleException;

/** solrscale's own jar, for what runs it elsewhere: drivers and relays on hosts, relays here. */
public final class SolrscaleJar {
  private SolrscaleJar() {}

  /**
   * The jar this runs from, or (run from classes, as in tests) the one the build put beside them;
   * {@code forWhat} names what needs it in the error when there is none.
   */
  public static Path path(String forWhat) {
    try {
      Path where =
          Path.of(SolrscaleJar.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (Files.isRegularFile(where) && where.getFileName().toString().equals("solrscale.jar")) {
        return where;
      }
      // run from classes or the module's own thin jar (tests): the whole jar the build made
      Path built = where.resolveSibling("solrscale.jar");
      if (Files.isRegularFile(built)) {
        return built;
      }
    } catch (URISyntaxException | RuntimeException e) {
      // below
    }
    throw SolrscaleException.environment(
        forWhat + " needs solrscale's jar to run elsewhere; build it with: mvn package");
  }
}
