package org.solrscale.it;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.solrscale.live.LiveServer;
import org.solrscale.live.RunFollower;

/** `solrscale watch` on a finished run, in this JVM: what its /metrics says. */
final class LiveViews {
  private LiveViews() {}

  static String metrics(Path runDir) throws Exception {
    try (LiveServer view = LiveServer.start(RunFollower.of(runDir), "127.0.0.1", 0, w -> {})) {
      return HttpClient.newHttpClient()
          .send(
              HttpRequest.newBuilder(URI.create(view.url() + "metrics")).build(),
              HttpResponse.BodyHandlers.ofString())
          .body();
    }
  }
}
