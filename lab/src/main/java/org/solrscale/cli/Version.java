package org.solrscale.cli;

import picocli.CommandLine.IVersionProvider;

/** Prints the solrscale version from the jar manifest. */
public final class Version implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String v = Version.class.getPackage().getImplementationVersion();
    return new String[] {"solrscale " + (v == null ? "dev" : v)};
  }
}
