package org.solrscale.it;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.solrscale.live.LiveServer;
import org.solrscale.live.RunFollower;

/** What a live view's /metrics says: of a finished run (`watch`, in this JVM), or of a live one. */
final class LiveViews {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private LiveViews() {}

  static String metrics(Path runDir) throws Exception {
    try (LiveServer view = LiveServer.start(RunFollower.of(runDir), "127.0.0.1", 0, w -> {})) {
      return get(view.url() + "metrics");
    }
  }

  static String get(String url) throws IOException, InterruptedException {
    return HTTP.send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
        .body();
  }

  /** The measured requests (done or failed) /metrics counts over all steps. */
  static long measured(String metrics) {
    return Math.round(
        metrics
            .lines()
            .filter(
                l -> l.startsWith("solrscale_requests_total{") && l.contains("phase=\"measured\""))
            .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
            .sum());
  }

  /** The sum of a metric's samples (all labels); 0 when it has none. */
  static double value(String metrics, String name) {
    return metrics
        .lines()
        .filter(l -> l.startsWith(name + "{") || l.startsWith(name + " "))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
