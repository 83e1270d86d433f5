package org.solrscale.cluster;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.solrscale.spec.SolrscaleException;

/** This machine as a {@link Remote}: commands through ProcessBuilder, files by copying. */
public final class LocalRemote implements Remote {
  private static final boolean HAVE_SETSID =
      Files.isExecutable(Path.of("/usr/bin/setsid")) || Files.isExecutable(Path.of("/bin/setsid"));

  @Override
  public Result run(List<String> command, String stdin, Duration timeout) {
    return exec(command, stdin, timeout);
  }

  /**
   * Starts the command detached from this terminal (its own session, so Ctrl-C on solrscale does
   * not reach it); the environment is how a secret reaches a node without its command line, which
   * `ps` shows everyone.
   */
  @Override
  public long start(
      List<String> command, String dir, String console, Map<String, String> environment) {
    List<String> cmd = new ArrayList<>();
    if (HAVE_SETSID) {
      cmd.add("setsid"); // in a non-leader child setsid execs in place: the pid stays the command's
    }
    cmd.addAll(command);
    try {
      Path log = Path.of(console);
      Files.createDirectories(Path.of(dir));
      Files.createDirectories(log.getParent());
      ProcessBuilder pb =
          new ProcessBuilder(cmd)
              .directory(new File(dir))
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      pb.environment().putAll(environment);
      Process p = pb.start();
      awaitExec(p, command);
      return p.pid();
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot start " + command.get(0) + ": " + e.getMessage());
    }
  }

  /**
   * Right after the fork the child's command line is still Java's spawn helper's; wait until it is
   * the command's own (or the child exited), so that a check by marker never mistakes a starting
   * process for a dead one.
   */
  private static void awaitExec(Process p, List<String> command) {
    String own = command.get(0) + " ";
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (p.isAlive() && !commandLine(p.pid()).startsWith(own) && System.nanoTime() < deadline) {
      Waits.sleep(5);
    }
  }

  private static String commandLine(long pid) {
    try {
      return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")))
          .replace('\0', ' ');
    } catch (IOException e) {
      return "";
    }
  }

  @Override
  public List<String> command(List<String> command) {
    return List.copyOf(command);
  }

  @Override
  public long upload(Path from, String to) {
    return copyTree(from, Path.of(to));
  }

  @Override
  public void download(String from, Path to) {
    Path source = Path.of(from);
    if (Files.isDirectory(source)) {
      copyTree(source, to);
    }
  }

  @Override
  public void close() {}

  /** Copies the files under {@code from} into {@code to}; the bytes copied (none onto itself). */
  private static long copyTree(Path from, Path to) {
    if (from.toAbsolutePath().normalize().equals(to.toAbsolutePath().normalize())) {
      return 0;
    }
    long bytes = 0;
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path f : walk.sorted().toList()) {
        Path dest = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(dest);
        } else {
          Files.createDirectories(dest.getParent());
          Files.copy(f, dest, StandardCopyOption.REPLACE_EXISTING);
          bytes += Files.size(f);
        }
      }
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot copy " + from + " to " + to + ": " + e.getMessage());
    }
    return bytes;
  }

  /** Runs {@code cmd} here with {@code stdin}; output and exit status, 124 when it timed out. */
  static Result exec(List<String> cmd, String stdin, Duration timeout) {
    return exec(cmd, stdin, timeout, null);
  }

  /**
   * Runs {@code cmd}; each line of its standard output that {@code take} takes (as it comes) is
   * left out of the result's output. {@code take} null: none.
   */
  static Result exec(
      List<String> cmd, String stdin, Duration timeout, java.util.function.Predicate<String> take) {
    try {
      Process p = new ProcessBuilder(cmd).start();
      var out = new ByteArrayOutputStream();
      var err = new ByteArrayOutputStream();
      Thread o =
          daemon(
              () -> {
                if (take == null) {
                  drain(p.getInputStream(), out);
                } else {
                  lines(p.getInputStream(), take, out);
                }
              });
      Thread e = daemon(() -> drain(p.getErrorStream(), err));
      try (var in = p.getOutputStream()) {
        if (stdin != null) {
          in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
      } catch (IOException ignored) {
        // the command did not read it all
      }
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly(); // our own child, by its handle
        return new Result(124, "", "timed out after " + timeout.toSeconds() + " s");
      }
      o.join();
      e.join();
      return new Result(
          p.exitValue(),
          out.toString(StandardCharsets.UTF_8),
          err.toString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot run " + cmd.get(0) + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrscaleException.failed("interrupted while running " + cmd.get(0));
    }
  }

  private static Thread daemon(Runnable r) {
    Thread t = new Thread(r, "command-output");
    t.setDaemon(true);
    t.start();
    return t;
  }

  private static void lines(
      InputStream in, java.util.function.Predicate<String> take, ByteArrayOutputStream rest) {
    try (var r =
        new java.io.BufferedReader(new java.io.InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (!take.test(line)) {
          rest.writeBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
        }
      }
    } catch (IOException ignored) {
      // the process ended
    }
  }

  private static void drain(InputStream in, ByteArrayOutputStream to) {
    try {
      in.transferTo(to);
    } catch (IOException ignored) {
      // the process ended
    }
  }
}
