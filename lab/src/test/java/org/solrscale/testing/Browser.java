package org.solrscale.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A real headless Chromium driven through ChromeDriver's W3C WebDriver protocol (a few JSON calls
 * over HTTP: open a page, run a script in it, take a screenshot). Started and stopped by its own
 * PIDs, never by name.
 */
public final class Browser implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Process driver;
  private final HttpClient http = HttpClient.newHttpClient();
  private final String base;
  private final String session;

  public Browser(Path profile) throws IOException, InterruptedException {
    String chromedriver = Needs.chromedriver();
    String chromium = Needs.chromium();
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    driver =
        new ProcessBuilder(chromedriver, "--port=" + port)
            .redirectErrorStream(true)
            .redirectOutput(profile.resolveSibling("chromedriver.log").toFile())
            .start();
    base = "http://127.0.0.1:" + port;
    String id = null;
    try {
      Await.until(
          "chromedriver answers",
          Duration.ofSeconds(20),
          () -> {
            try {
              return call("GET", "/status", null).path("value").path("ready").asBoolean();
            } catch (IOException e) {
              return false;
            }
          });
      Map<String, Object> caps =
          Map.of(
              "capabilities",
              Map.of(
                  "alwaysMatch",
                  Map.of(
                      "browserName",
                      "chrome",
                      "goog:chromeOptions",
                      Map.of(
                          "binary",
                          chromium,
                          "args",
                          List.of(
                              "--headless",
                              "--no-sandbox",
                              "--disable-gpu",
                              "--disable-background-networking",
                              "--window-size=1400,1800",
                              "--user-data-dir=" + profile)))));
      id = call("POST", "/session", caps).path("value").path("sessionId").asText();
    } finally {
      if (id == null) {
        stopDriver();
      }
    }
    session = id;
  }

  public void open(String url) throws IOException, InterruptedException {
    call("POST", "/session/" + session + "/url", Map.of("url", url));
  }

  /** Runs {@code script} (a function body; `return` its result) in the page. */
  public JsonNode eval(String script) throws IOException, InterruptedException {
    return call(
            "POST",
            "/session/" + session + "/execute/sync",
            Map.of("script", script, "args", List.of()))
        .path("value");
  }

  /** A PNG of the window. */
  public byte[] screenshot() throws IOException, InterruptedException {
    return java.util.Base64.getDecoder()
        .decode(call("GET", "/session/" + session + "/screenshot", null).path("value").asText());
  }

  private JsonNode call(String method, String path, Object body)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
    b =
        body == null
            ? b.method(method, HttpRequest.BodyPublishers.noBody())
            : b.method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                .header("Content-Type", "application/json");
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    JsonNode j = JSON.readTree(r.body());
    if (r.statusCode() != 200) {
      throw new IOException("webdriver " + method + " " + path + ": " + r.body());
    }
    return j;
  }

  private void stopDriver() {
    List<ProcessHandle> children = driver.toHandle().descendants().toList();
    driver.destroy();
    try {
      driver.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    driver.destroyForcibly();
    children.forEach(ProcessHandle::destroyForcibly); // by pid: the browser it started
  }

  @Override
  public void close() {
    try {
      call("DELETE", "/session/" + session, null);
    } catch (IOException | InterruptedException e) {
      // the driver ends the browser with itself below
    } finally {
      stopDriver();
    }
  }
}
