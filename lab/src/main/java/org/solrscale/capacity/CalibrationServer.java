package org.solrscale.capacity;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A server whose capacity is known in advance, to check capacity searches against: {@code workers}
 * threads take requests in arrival order from one queue, and each request holds its worker for
 * {@code serviceMs} before a Solr-shaped answer. So it serves at most workers * 1000 / serviceMs
 * requests a second; with evenly spaced arrivals below that nothing waits (latency = service time),
 * above it the queue, and so latency, grows without bound. Listens on 127.0.0.1 only.
 */
public final class CalibrationServer implements AutoCloseable {
  private static final byte[] BODY =
      "{\"responseHeader\":{\"status\":0,\"QTime\":0},\"response\":{\"numFound\":0,\"start\":0,\"docs\":[]}}"
          .getBytes(StandardCharsets.UTF_8);

  private final HttpServer server;
  private final ExecutorService workers;
  private final int count;
  private final double serviceMs;

  private CalibrationServer(HttpServer server, ExecutorService workers, int count, double ms) {
    this.server = server;
    this.workers = workers;
    this.count = count;
    this.serviceMs = ms;
  }

  /** Starts it on a port (0: a free one) of 127.0.0.1. */
  public static CalibrationServer start(int port, int workers, double serviceMs)
      throws IOException {
    if (workers < 1 || !(serviceMs > 0)) {
      throw new IllegalArgumentException("workers must be 1 or more and the service time above 0");
    }
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1024);
    ExecutorService pool = Executors.newFixedThreadPool(workers);
    long serviceNanos = Math.round(serviceMs * 1e6);
    server.createContext(
        "/",
        exchange -> {
          long until = System.nanoTime() + serviceNanos;
          for (long left = serviceNanos; left > 0; left = until - System.nanoTime()) {
            LockSupport.parkNanos(left);
          }
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, BODY.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(BODY);
          }
        });
    server.setExecutor(pool);
    server.start();
    return new CalibrationServer(server, pool, workers, serviceMs);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** Its base URL as Solr's would be: http://127.0.0.1:PORT/solr. */
  public String url() {
    return "http://127.0.0.1:" + port() + "/solr";
  }

  /** The most requests a second it can serve: workers * 1000 / service time in ms. */
  public double capacity() {
    return count * 1000 / serviceMs;
  }

  @Override
  public void close() {
    server.stop(0);
    workers.shutdownNow();
    try {
      workers.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
