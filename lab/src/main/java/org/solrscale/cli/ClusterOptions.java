package org.solrscale.cli;

import java.time.Duration;
import picocli.CommandLine.Option;

/** The options that name a cluster and bound how long to wait for it. */
final class ClusterOptions {
  @Option(
      names = "--name",
      defaultValue = "lab",
      description = "Cluster name (default: ${DEFAULT-VALUE}).")
  String name;

  @Option(
      names = "--timeout",
      defaultValue = "300s",
      converter = DurationConverter.class,
      description = "How long to wait for nodes and replicas (default: ${DEFAULT-VALUE}).")
  Duration timeout;
}
