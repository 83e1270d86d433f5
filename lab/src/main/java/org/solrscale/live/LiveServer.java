package org.solrscale.live;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.solrscale.results.BenchSummary;
import org.solrscale.spec.SolrscaleException;

/**
 * The live view of one run: a page (charts drawn in the browser with uPlot, shipped inside the jar)
 * fed by Server-Sent Events once a second, and /metrics in the Prometheus text format, both from a
 * {@link RunFollower} polled twice a second. Server-Sent Events rather than polling: one connection
 * per page, the browser's EventSource reconnects by itself, and each page is sent only what is new
 * since its last event. The JDK's own HTTP server: no dependency, and it binds where it is told
 * (127.0.0.1 unless the user says otherwise).
 */
public final class LiveServer implements AutoCloseable {
  /** The uPlot inside the jar: kept equal to the pom's uplot.version (LiveServerTest checks). */
  static final String UPLOT = "META-INF/resources/webjars/uplot/1.6.30/";

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Telemetry metrics the page draws; the rest stay in the step's telemetry.csv. */
  private static final Set<String> PAGE_METRICS =
      Set.of(
          "heap_used",
          "cpu",
          "scrape_errors",
          "serving",
          "leading",
          "live_nodes",
          "shards",
          "leaders",
          "active",
          "recovering",
          "down");

  private final RunFollower run;
  private final HttpServer server;
  private final ExecutorService pool;
  private final Thread poller;
  private volatile boolean running = true;

  private final CpuMeter cpu;

  private LiveServer(
      RunFollower run,
      HttpServer server,
      ExecutorService pool,
      Consumer<String> warn,
      CpuMeter cpu) {
    this.cpu = cpu;
    this.run = run;
    this.server = server;
    this.pool = pool;
    this.poller =
        new Thread(
            cpu.measured(
                () -> {
                  while (running) {
                    run.poll(warn);
                    synchronized (this) {
                      notifyAll();
                    }
                    try {
                      Thread.sleep(500);
                    } catch (InterruptedException e) {
                      return;
                    }
                  }
                }),
            "solrscale-live-poll");
    poller.setDaemon(true);
  }

  /**
   * Serves {@code run} on {@code bind}:{@code port} (0: any free port); {@code warn} hears what the
   * view cannot show (the run directory deleted).
   */
  public static LiveServer start(RunFollower run, String bind, int port, Consumer<String> warn) {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(bind), port), 0);
    } catch (BindException e) {
      throw SolrscaleException.usage(
          "cannot listen on "
              + bind
              + ":"
              + port
              + ": "
              + e.getMessage()
              + "; give another --port, or --port 0 for any free one");
    } catch (UnknownHostException e) {
      throw SolrscaleException.usage("--bind " + bind + " is no address of this machine");
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot listen on " + bind + ":" + port + ": " + e);
    }
    CpuMeter cpu = new CpuMeter();
    ExecutorService pool =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(cpu.measured(r), "solrscale-live");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(pool);
    LiveServer s = new LiveServer(run, server, pool, warn, cpu);
    server.createContext("/", s::page);
    server.createContext("/metrics", s::metrics);
    server.createContext("/events", s::events);
    server.createContext("/report", s::report);
    run.poll(warn);
    s.poller.start();
    server.start();
    return s;
  }

  /** The address to open, as http://HOST:PORT/. */
  public String url() {
    InetSocketAddress a = server.getAddress();
    String host =
        a.getAddress().isAnyLocalAddress() ? "127.0.0.1" : a.getAddress().getHostAddress();
    return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort() + "/";
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private static final Map<String, String[]> FILES =
      Map.of(
          "/", new String[] {"org/solrscale/live/page.html", "text/html; charset=utf-8"},
          "/page.js", new String[] {"org/solrscale/live/page.js", "text/javascript"},
          "/page.css", new String[] {"org/solrscale/live/page.css", "text/css"},
          "/uplot.js", new String[] {UPLOT + "dist/uPlot.iife.min.js", "text/javascript"},
          "/uplot.css", new String[] {UPLOT + "dist/uPlot.min.css", "text/css"},
          "/uplot-LICENSE", new String[] {UPLOT + "LICENSE", "text/plain; charset=utf-8"});

  private void page(HttpExchange x) throws IOException {
    try (x) {
      String[] f = FILES.get(x.getRequestURI().getPath());
      if (f == null || !x.getRequestMethod().equals("GET")) {
        send(x, 404, "text/plain", "not found".getBytes(StandardCharsets.UTF_8));
        return;
      }
      try (InputStream in = LiveServer.class.getClassLoader().getResourceAsStream(f[0])) {
        if (in == null) {
          send(
              x,
              500,
              "text/plain",
              ("missing from the jar: " + f[0]).getBytes(StandardCharsets.UTF_8));
          return;
        }
        send(x, 200, f[1], in.readAllBytes());
      }
    }
  }

  private static void send(HttpExchange x, int status, String type, byte[] body)
      throws IOException {
    x.getResponseHeaders().set("Content-Type", type);
    x.getResponseHeaders().set("Cache-Control", "no-store");
    x.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
    // nothing but this server: the page works offline and sends nothing elsewhere
    x.getResponseHeaders()
        .set(
            "Content-Security-Policy",
            "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:");
    x.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream o = x.getResponseBody()) {
        o.write(body);
      }
    }
  }

  private void metrics(HttpExchange x) throws IOException {
    try (x) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      PrometheusTextFormatWriter.create()
          .write(b, LiveMetrics.of(run), io.prometheus.metrics.config.EscapingScheme.ALLOW_UTF8);
      send(x, 200, PrometheusTextFormatWriter.CONTENT_TYPE, b.toByteArray());
    }
  }

  /**
   * The run's report once written: /report/ is report.html, /report/charts/NAME one of its charts;
   * nothing else of the directory is served.
   */
  private void report(HttpExchange x) throws IOException {
    try (x) {
      String path = x.getRequestURI().getPath();
      java.nio.file.Path file = null;
      if (path.equals("/report") || path.equals("/report/")) {
        file = run.root().resolve("report.html");
      } else if (path.startsWith("/report/charts/")
          && path.substring(15).matches("[A-Za-z0-9][A-Za-z0-9._-]*")) {
        file = run.root().resolve("charts").resolve(path.substring(15));
      }
      if (file == null || !Files.isRegularFile(file)) {
        send(x, 404, "text/plain", "no such report file (yet)".getBytes(StandardCharsets.UTF_8));
        return;
      }
      String name = file.getFileName().toString();
      String type =
          name.endsWith(".html")
              ? "text/html; charset=utf-8"
              : name.endsWith(".svg")
                  ? "image/svg+xml"
                  : name.endsWith(".png") ? "image/png" : "application/octet-stream";
      send(x, 200, type, Files.readAllBytes(file));
    }
  }

  /** A page's stream: everything so far, then what is new, once a second, until it goes. */
  private void events(HttpExchange x) throws IOException {
    try (x) {
      x.getResponseHeaders().set("Content-Type", "text/event-stream");
      x.getResponseHeaders().set("Cache-Control", "no-store");
      x.sendResponseHeaders(200, 0);
      OutputStream o = x.getResponseBody();
      Map<String, int[]> cursors = new HashMap<>();
      long seen = -1;
      while (running) {
        long v = run.version();
        if (v != seen) {
          seen = v;
          byte[] event =
              ("data: " + JSON.writeValueAsString(delta(cursors)) + "\n\n")
                  .getBytes(StandardCharsets.UTF_8);
          o.write(event);
          o.flush(); // a page that went away fails here: its thread ends
        } else {
          o.write(": idle\n\n".getBytes(StandardCharsets.UTF_8)); // finds a page gone
          o.flush();
        }
        synchronized (this) {
          try {
            wait(1000);
          } catch (InterruptedException e) {
            return;
          }
        }
      }
    }
  }

  /** What the page has not seen: new points and samples of each step, all faults, progress. */
  ObjectNode delta(Map<String, int[]> cursors) {
    ObjectNode out = JSON.createObjectNode();
    out.put("root", run.root().toString());
    out.put("gone", run.gone());
    out.put("report", run.hasReport());
    out.set("progress", run.progress());
    out.put("now_ms", System.currentTimeMillis());
    ArrayNode steps = out.putArray("steps");
    run.read(
        all -> {
          for (StepFeed s : all) {
            int[] c = cursors.computeIfAbsent(s.id, k -> new int[2]);
            ObjectNode j = steps.addObject();
            j.put("id", s.id);
            j.put("started_ms", s.startedMs);
            j.put("finished", s.finished);
            j.put("measured", s.measuredCount);
            j.put("warmup", s.warmupCount);
            j.put("indexed", s.indexed);
            // the step's measured latency so far, as its summary.json will say it
            j.set("latency_ms", JSON.valueToTree(BenchSummary.millis(s.measured)));
            ArrayNode points = j.putArray("points");
            List<StepFeed.Point> ps = s.points;
            for (int i = c[0]; i < ps.size(); i++) {
              StepFeed.Point p = ps.get(i);
              ArrayNode a = points.addArray();
              a.add(p.startMs())
                  .add(p.count())
                  .add(p.errors())
                  .add(p.sent())
                  .add(p.p50())
                  .add(p.p99())
                  .add(p.p999())
                  .add(p.lagP99())
                  .add(p.cpuCores());
              a.add(JSON.valueToTree(p.errorKinds()));
              a.add(Math.round(p.docs() * 10) / 10.0);
            }
            c[0] = ps.size();
            ArrayNode samples = j.putArray("samples");
            List<StepFeed.Sample> ss = s.samples;
            for (int i = c[1]; i < ss.size(); i++) {
              StepFeed.Sample t = ss.get(i);
              if (PAGE_METRICS.contains(t.metric())
                  || t.metric().startsWith(org.solrscale.telemetry.Telemetry.LEADER)) {
                samples.addArray().add(t.atMs()).add(t.node()).add(t.metric()).add(t.value());
              }
            }
            c[1] = ss.size();
            j.set("probes", JSON.valueToTree(s.probes));
            j.set("targets", JSON.valueToTree(s.targets.values()));
            ArrayNode faults = j.putArray("faults");
            for (StepFeed.FaultWindow w : s.windows) {
              faults
                  .addObject()
                  .put("name", w.name())
                  .put("fault", w.fault())
                  .put("nodes", String.join(",", w.nodes()))
                  .put("start_ms", w.startMs())
                  .put("heal_ms", w.healMs())
                  .put("end_ms", w.endMs());
            }
          }
          return null;
        });
    return out;
  }

  /**
   * CPU seconds the view's own threads used so far (reading the files, building events and
   * /metrics, sending): what watching costs the process it runs in.
   */
  public double cpuSeconds() {
    return cpu.seconds();
  }

  @Override
  public void close() {
    running = false;
    poller.interrupt();
    synchronized (this) {
      notifyAll();
    }
    server.stop(0);
    pool.shutdownNow();
    try {
      poller.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
