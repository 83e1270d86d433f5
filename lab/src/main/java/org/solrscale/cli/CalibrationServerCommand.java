package org.solrscale.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.solrscale.capacity.CalibrationServer;
import org.solrscale.spec.SolrscaleException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * `solrscale calibration-server`: a local server of known capacity (workers x 1000 / service ms
 * requests a second) to check `capacity` against, as docs/bench/capacity-calibration.md does.
 */
@Command(
    name = "calibration-server",
    hidden = true,
    description =
        "A server of known capacity on 127.0.0.1 (WORKERS x 1000 / SERVICE_MS requests/s) that"
            + " answers every request like a Solr query, to check capacity against.")
final class CalibrationServerCommand implements Callable<Integer> {
  @Option(names = "--workers", defaultValue = "4", description = "Workers (default: 4).")
  int workers;

  @Option(
      names = "--service-ms",
      defaultValue = "10",
      description = "Time each request holds its worker, in ms (default: 10).")
  double serviceMs;

  @Option(names = "--port", defaultValue = "0", description = "Port (default: a free one).")
  int port;

  @Option(
      names = "--for",
      defaultValue = "10m",
      converter = DurationConverter.class,
      description = "Stop after this long (default: 10m).")
  Duration lifetime;

  @Override
  public Integer call() throws Exception {
    if (workers < 1 || !(serviceMs > 0)) {
      throw SolrscaleException.usage("--workers must be 1 or more and --service-ms above 0");
    }
    try (CalibrationServer s = CalibrationServer.start(port, workers, serviceMs)) {
      System.out.printf(
          Locale.ROOT,
          "%s capacity %.1f requests/s (%d workers x %s ms)%n",
          s.url(),
          s.capacity(),
          workers,
          serviceMs);
      System.out.flush();
      Thread.sleep(lifetime.toMillis());
    }
    return 0;
  }
}
