package org.solrscale.runtime;

import java.io.File;
import java.nio.file.Path;
import java.util.List;

/** The classpath of one Solr version, resolved and cached, plus what it needs to run. */
public record SolrRuntime(
    String version, Path dir, List<Path> classpath, String jettyVersion, int minimumJava) {

  /** How this version is run (its major's launcher). */
  public Launcher launcher() {
    return Launcher.forVersion(version);
  }

  public String classpathString() {
    StringBuilder sb = new StringBuilder();
    for (Path p : classpath) {
      if (sb.length() > 0) {
        sb.append(File.pathSeparatorChar);
      }
      sb.append(p);
    }
    return sb.toString();
  }
}
