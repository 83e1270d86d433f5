package org.solrscale.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * The version line: the project version and the git revision the build was made from, both recorded
 * at build time (solrscale/version.properties and solrscale/git.properties).
 */
public final class Version implements IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {line()};
  }

  /** E.g. "solrscale 0.1.0-SNAPSHOT (git 1a2b3c4, dirty)". */
  static String line() {
    Properties version = resource("/solrscale/version.properties");
    Properties git = resource("/solrscale/git.properties");
    String commit = git.getProperty("git.commit.id.abbrev", "");
    commit =
        commit.matches("[0-9a-f]{7,}") ? commit : null; // else git was missing or not a checkout
    return "solrscale "
        + version.getProperty("version", "dev")
        + " ("
        + (commit == null
            ? "git revision unknown: built without git or .git"
            : "git " + commit + ("true".equals(git.getProperty("git.dirty")) ? ", dirty" : ""))
        + ")";
  }

  private static Properties resource(String name) {
    Properties p = new Properties();
    try (InputStream in = Version.class.getResourceAsStream(name)) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      // an unreadable resource: the line says what is unknown
    }
    return p;
  }
}
