package org.solrscale.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.solrscale.net.Commands;
import org.solrscale.spec.SolrscaleException;

/**
 * Starts and signals node processes on this machine, always by the pid solrscale recorded and only
 * after checking that the pid still carries the node's marker (so a reused pid is never touched).
 */
public final class LocalProcesses {
  private static final boolean HAVE_SETSID =
      Files.isExecutable(Path.of("/usr/bin/setsid")) || Files.isExecutable(Path.of("/bin/setsid"));

  /** The system property that marks a process as a given node of a given cluster. */
  public static String marker(String cluster, String nodeId) {
    return "-Dsolrscale.node=" + cluster + "/" + nodeId;
  }

  /**
   * Starts a command detached from this terminal (its own session, so Ctrl-C on solrscale does not
   * reach the node), output appended to {@code console}.
   */
  public long start(List<String> command, Path workDir, Path console) {
    return start(command, workDir, console, Map.of());
  }

  /**
   * As {@link #start(List, Path, Path)}, with {@code environment} added to the process's
   * environment: how a secret reaches a node without its command line, which `ps` shows everyone.
   */
  public long start(
      List<String> command, Path workDir, Path console, Map<String, String> environment) {
    List<String> cmd = new ArrayList<>();
    if (HAVE_SETSID) {
      cmd.add("setsid"); // in a non-leader child setsid execs in place: the pid stays the java pid
    }
    cmd.addAll(command);
    try {
      Files.createDirectories(console.getParent());
      ProcessBuilder pb =
          new ProcessBuilder(cmd)
              .directory(workDir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(console.toFile()))
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
   * the node's own (or the child exited), so the marker check never mistakes a starting node for a
   * dead one.
   */
  private static void awaitExec(Process p, List<String> command) {
    // done when the command line is the node's own program's (java's, not setsid's in between)
    String own = command.get(0) + " ";
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (p.isAlive() && !commandLine(p.pid()).startsWith(own) && System.nanoTime() < deadline) {
      sleep(5);
    }
  }

  public ProcessState state(long pid, String marker) {
    if (pid <= 0) {
      return ProcessState.STOPPED;
    }
    Optional<ProcessHandle> handle = handle(pid, marker);
    if (handle.isEmpty()) {
      return ProcessState.DEAD;
    }
    return linuxState(pid) == 'T' ? ProcessState.PAUSED : ProcessState.RUNNING;
  }

  /** The process, if pid is alive and its command line carries the marker. */
  Optional<ProcessHandle> handle(long pid, String marker) {
    Optional<ProcessHandle> h = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
    if (h.isEmpty()) {
      return h;
    }
    char state = linuxState(pid);
    if (state == 'Z' || state == 'X') {
      return Optional.empty();
    }
    String cmdline = commandLine(pid);
    // while a process execs, its command line reads empty for a moment: look again
    for (int i = 0; i < 50 && cmdline.isEmpty() && h.get().isAlive(); i++) {
      sleep(10);
      cmdline = commandLine(pid);
    }
    return cmdline.contains(marker) ? h : Optional.empty();
  }

  private static String commandLine(long pid) {
    try {
      return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")))
          .replace('\0', ' ');
    } catch (IOException e) {
      return "";
    }
  }

  private static char linuxState(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      int close = stat.lastIndexOf(')');
      return close > 0 && close + 2 < stat.length() ? stat.charAt(close + 2) : '?';
    } catch (IOException e) {
      return '?';
    }
  }

  /**
   * SIGTERM (after SIGCONT if paused), wait up to {@code grace}, then SIGKILL. True if it was
   * alive.
   */
  public boolean stop(long pid, String marker, Duration grace) {
    Optional<ProcessHandle> h = handle(pid, marker);
    if (h.isEmpty()) {
      return false;
    }
    if (linuxState(pid) == 'T') {
      signal(pid, "CONT");
    }
    h.get().destroy();
    if (!waitForExit(h.get(), grace)) {
      h.get().destroyForcibly();
      waitForExit(h.get(), Duration.ofSeconds(30));
    }
    return true;
  }

  /** SIGKILL, then wait until the pid is gone. */
  public boolean kill(long pid, String marker) {
    Optional<ProcessHandle> h = handle(pid, marker);
    if (h.isEmpty()) {
      return false;
    }
    h.get().destroyForcibly();
    waitForExit(h.get(), Duration.ofSeconds(30));
    return true;
  }

  /** SIGSTOP, and returns once the kernel shows the process stopped (signals are asynchronous). */
  public void pause(long pid, String marker) {
    requireAlive(pid, marker);
    signal(pid, "STOP");
    awaitState(pid, true);
  }

  /** SIGCONT, and returns once the process is no longer shown stopped. */
  public void resume(long pid, String marker) {
    requireAlive(pid, marker);
    signal(pid, "CONT");
    awaitState(pid, false);
  }

  private static void awaitState(long pid, boolean stopped) {
    long deadline = System.nanoTime() + 2_000_000_000L;
    while ((linuxState(pid) == 'T') != stopped && System.nanoTime() < deadline) {
      Thread.onSpinWait();
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void requireAlive(long pid, String marker) {
    if (handle(pid, marker).isEmpty()) {
      throw SolrscaleException.failed(
          "process " + pid + " (" + marker.substring(2) + ") is not running");
    }
  }

  private static boolean waitForExit(ProcessHandle h, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (h.isAlive() && linuxState(h.pid()) != 'Z' && System.nanoTime() < deadline) {
      sleep(100);
    }
    return !h.isAlive() || linuxState(h.pid()) == 'Z';
  }

  /** Java has no SIGSTOP/SIGCONT: use kill(1), by pid. */
  private static void signal(long pid, String signal) {
    try {
      Process p =
          new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes()).trim();
      if (p.waitFor() != 0) {
        throw SolrscaleException.environment("kill -" + signal + " " + pid + " failed: " + out);
      }
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot run kill: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrscaleException.environment("interrupted while signalling " + pid);
    }
  }

  /**
   * Runs a short command (such as jcmd) and returns its output; a non-zero exit or no answer within
   * {@code timeout} is one line naming {@code what} it was for.
   */
  static String output(List<String> command, Duration timeout, String what) {
    Commands.Result r = Commands.run(command, timeout);
    String tool = Path.of(command.get(0)).getFileName().toString();
    if (r.code() < 0) {
      throw SolrscaleException.environment(
          tool + " for " + what + " gave no answer in " + timeout.toSeconds() + " s");
    }
    if (!r.ok()) {
      throw SolrscaleException.environment(
          tool + " for " + what + " failed: " + r.output().strip().replace('\n', ' '));
    }
    return r.output();
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrscaleException.failed("interrupted");
    }
  }
}
