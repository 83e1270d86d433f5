package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.solrscale.testing.Needs;

/** A lab network of an IT's own: made fresh before its tests, removed after them. */
final class LabNets {
  private LabNets() {}

  /** Net {@code name} of {@code hosts} hosts, after removing what a killed earlier run left. */
  static void fresh(String name, int hosts) {
    Needs.labHosts();
    Cli.run("net", "down", "--name", name, "--if-exists");
    Cli.Result r = Cli.run("net", "up", "--name", name, "--hosts", Integer.toString(hosts));
    assertThat(r.exitCode()).as(r.err()).isZero();
  }

  /** Removes net {@code name}, if it is there. */
  static void down(String name) {
    Cli.Result r = Cli.run("net", "down", "--name", name, "--if-exists");
    assertThat(r.exitCode()).as(r.err()).isZero();
  }
}
