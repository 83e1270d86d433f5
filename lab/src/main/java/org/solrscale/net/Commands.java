package org.solrscale.net;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.solrscale.spec.SolrscaleException;

/** Runs the system's commands (ip, tc, ssh-keygen, ssh) and turns a failure into one line. */
public final class Commands {
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  /** What a command printed (stdout and stderr together) and how it exited (-1: timed out). */
  public record Result(int code, String output) {
    public boolean ok() {
      return code == 0;
    }

    /** The first line it printed, or its exit code when it printed nothing. */
    public String firstLine() {
      return output
          .lines()
          .map(String::strip)
          .filter(l -> !l.isEmpty())
          .findFirst()
          .orElse(code < 0 ? "timed out" : "exit code " + code);
    }
  }

  private Commands() {}

  static Result run(List<String> command) {
    return run(command, TIMEOUT);
  }

  /**
   * Runs {@code command} with no input; its output goes to a file, not a pipe, so that a process it
   * leaves behind (an ssh ControlMaster from the user's configuration) cannot hold us up.
   */
  public static Result run(List<String> command, Duration timeout) {
    Path out = null;
    Process p = null;
    try {
      out = Files.createTempFile("solrscale-net", ".out");
      p =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(out.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .start();
      boolean done = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (!done) {
        p.destroyForcibly(); // our own child, by its handle
        p.waitFor(5, TimeUnit.SECONDS);
      }
      return new Result(done ? p.exitValue() : -1, Files.readString(out, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot run " + command.get(0) + ": " + e.getMessage());
    } catch (InterruptedException e) {
      if (p != null) {
        p.destroyForcibly();
      }
      Thread.currentThread().interrupt();
      throw SolrscaleException.environment("interrupted");
    } finally {
      if (out != null) {
        try {
          Files.deleteIfExists(out);
        } catch (IOException e) {
          // a temporary file left in /tmp
        }
      }
    }
  }

  /** Runs {@code command}; when it fails, an environment error: "cannot WHAT: its first line". */
  static String check(String what, List<String> command) {
    Result r = run(command);
    if (!r.ok()) {
      throw SolrscaleException.environment(
          "cannot " + what + " (" + String.join(" ", command) + "): " + r.firstLine());
    }
    return r.output();
  }

  /**
   * Where {@code program} is: on the PATH, else in /usr/sbin or /sbin (where iproute2 lives, which
   * a user's PATH may lack); empty when nowhere.
   */
  static Optional<String> which(String program) {
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    for (String d : (path + ":/usr/sbin:/sbin").split(":")) {
      if (!d.isEmpty() && Files.isExecutable(Path.of(d, program))) {
        return Optional.of(Path.of(d, program).toAbsolutePath().toString());
      }
    }
    return Optional.empty();
  }
}
