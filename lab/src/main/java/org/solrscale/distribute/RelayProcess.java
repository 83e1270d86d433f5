package org.solrscale.distribute;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One `solrscale relay` process (here, or on a host through ssh) and what it has said: its address
 * once it listens, its latest progress, the targets it reported failed, its result. Its JSON lines
 * are read as they come; each also goes to {@code onEvent} (the live overview).
 */
public final class RelayProcess implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String name;
  private final Process process;
  private final Thread reader;
  private final List<String> stderr = new ArrayList<>();
  private volatile String address;
  private volatile long pid;
  private volatile long bytes;
  private volatile long total;
  private volatile String from;
  private volatile JsonNode result;
  private final List<JsonNode> events = new ArrayList<>();

  /** Starts {@code command} (a local java or an ssh that runs one) for target {@code name}. */
  public RelayProcess(String name, List<String> command, Consumer<JsonNode> onEvent)
      throws IOException {
    this.name = name;
    process = new ProcessBuilder(command).redirectErrorStream(false).start();
    reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                  JsonNode e;
                  try {
                    e = JSON.readTree(line);
                  } catch (IOException bad) {
                    continue; // not ours (a JVM warning on stdout, say)
                  }
                  take(e);
                  onEvent.accept(e);
                }
              } catch (IOException e) {
                // the process ended
              }
            },
            "relay-" + name);
    reader.setDaemon(true);
    reader.start();
    Thread err =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                  synchronized (stderr) {
                    if (stderr.size() < 50) {
                      stderr.add(line);
                    }
                  }
                }
              } catch (IOException e) {
                // ended
              }
            },
            "relay-err-" + name);
    err.setDaemon(true);
    err.start();
  }

  private void take(JsonNode e) {
    synchronized (events) {
      events.add(e);
    }
    switch (e.path("event").asText()) {
      case "listening" -> {
        pid = e.path("pid").asLong();
        address = e.path("address").asText();
      }
      case "progress" -> {
        bytes = e.path("bytes").asLong();
        total = e.path("total").asLong();
      }
      case "upstream" -> from = e.path("from").asText();
      case "result", "sent", "removed" -> result = e;
      default -> {}
    }
  }

  public String name() {
    return name;
  }

  /** Its address (host:port) once it listens; null before, or when it ended without. */
  public String awaitAddress(long timeoutMs) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (address == null && process.isAlive() && System.currentTimeMillis() < deadline) {
      Thread.sleep(20);
    }
    return address;
  }

  /** The relay's process id on its host (0 until it listens). */
  public long pid() {
    return pid;
  }

  public long bytes() {
    return bytes;
  }

  public long total() {
    return total;
  }

  public String from() {
    return from;
  }

  public boolean alive() {
    return process.isAlive();
  }

  /** Its last line: the result of a receiver or the summary of a sender; null when none came. */
  public JsonNode awaitResult(long timeoutMs) throws InterruptedException {
    process.waitFor(timeoutMs, TimeUnit.MILLISECONDS);
    reader.join(2_000);
    return result;
  }

  /** Every event it printed, in order. */
  public List<JsonNode> events() {
    synchronized (events) {
      return List.copyOf(events);
    }
  }

  /** What it wrote to its standard error (the first 50 lines), for an error message. */
  public String stderr() {
    synchronized (stderr) {
      return String.join("\n", stderr);
    }
  }

  /** Stops the local process (for a remote relay: its ssh) if it still runs. */
  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroy();
      try {
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
