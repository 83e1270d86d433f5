package org.solrscale.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.solrscale.cluster.Remote.Result;
import org.solrscale.net.SshConfig;
import org.solrscale.runtime.FileTrees;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.HostSpec;
import org.solrscale.spec.SolrscaleException;

/**
 * Runs commands and copies files on hosts through the user's own OpenSSH client, so their ssh
 * config, agent, keys and ProxyJump apply: always non-interactive ({@code BatchMode=yes}), new host
 * keys accepted once ({@code StrictHostKeyChecking=accept-new}), one multiplexed connection per
 * host ({@code ControlMaster}, sockets in a directory of the cluster's), files by rsync when the
 * host has it, else tar over ssh. The ssh config is {@code $SOLRSCALE_HOME/ssh/config} when it
 * exists (the lab network's hosts, then the user's own configuration), else the user's.
 */
public final class Ssh {
  private static final Duration MASTER_IDLE = Duration.ofSeconds(120);
  private static final Pattern RSYNC_SENT = Pattern.compile("Total bytes sent: ([0-9,.]+)");

  /** How long one connection's set-up may take, past ssh's own ConnectTimeout of 10 s. */
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);

  private final SolrscaleHome home;
  private final Path controlDir;
  private final java.util.Map<String, Long> connected =
      new java.util.concurrent.ConcurrentHashMap<>();
  private final java.util.Map<String, Object> connecting =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** Connections multiplexed through sockets in {@code stateDir}/ssh (or a short path in /tmp). */
  public Ssh(SolrscaleHome home, Path stateDir) {
    this.home = home;
    this.controlDir = controlDir(stateDir);
  }

  /** The ssh config solrscale passes with -F, when there is one. */
  public Path config() {
    return SshConfig.file(home);
  }

  /** Runs the agent script on {@code host} with {@code op} and its arguments. */
  public Result agent(HostSpec host, Duration timeout, String op, String... args) {
    return run(host, HostAgent.command(op, args), HostAgent.SCRIPT, timeout);
  }

  /** Like {@link #agent} but fails with a one-line error unless the agent succeeded. */
  public String agentOk(HostSpec host, Duration timeout, String op, String... args) {
    Result r = agent(host, timeout, op, args);
    if (!r.ok()) {
      throw failure(host, r, op);
    }
    return r.out();
  }

  /** The one-line error of a failed command on a host. */
  public SolrscaleException failure(HostSpec host, Result r, String what) {
    if (r.exit() == 255) {
      return SolrscaleException.environment(unreachable(host, r));
    }
    return SolrscaleException.environment(
        what + " failed on host " + host.ssh() + " (exit " + r.exit() + "): " + lastLine(r.err()));
  }

  /** The one-line error for a host ssh could not reach. */
  public String unreachable(HostSpec host, Result r) {
    if (SshGate.dropped(r)) {
      return "host "
          + host.ssh()
          + "'s sshd (or its jump host's) dropped the connection while it was being set up, "
          + SshGate.ATTEMPTS
          + " times: too many connections at once for its MaxStartups; give a lower"
          + " --ssh-parallel (now "
          + (SshGate.bound() == 0 ? "no bound" : SshGate.bound())
          + ") or raise MaxStartups in that sshd's configuration";
    }
    return "cannot reach host "
        + host.ssh()
        + " over SSH: "
        + lastLine(r.err())
        + "; check that `ssh "
        + (host.port() == null ? "" : "-p " + host.port() + " ")
        + host.ssh()
        + " true` works without a password prompt";
  }

  /** Runs {@code remote} (arguments, quoted for the remote shell) with {@code stdin}. */
  public Result run(HostSpec host, List<String> remote, String stdin, Duration timeout) {
    return run(host, remote, stdin, timeout, null);
  }

  /**
   * As {@link #run(HostSpec, List, String, Duration)}, giving each line the command prints to
   * {@code take} as it comes; the lines it takes are left out of the result's output.
   */
  public Result run(
      HostSpec host,
      List<String> remote,
      String stdin,
      Duration timeout,
      java.util.function.Predicate<String> take) {
    ensureControlDir();
    Result up = connect(host);
    if (up != null) {
      return up;
    }
    List<String> cmd = new ArrayList<>(base(host));
    cmd.add(host.ssh());
    cmd.add("--");
    cmd.add(quote(remote));
    Result r = LocalRemote.exec(cmd, stdin, timeout, take);
    if (SshGate.dropped(r)) {
      // the shared connection had ended and a new one was dropped before it ran the command
      connected.remove(key(host));
      up = connect(host);
      r = up != null ? up : LocalRemote.exec(cmd, stdin, timeout, take);
    }
    return r;
  }

  /**
   * Makes sure this host's shared connection is up before a command uses it, setting it up within
   * {@link SshGate}'s bound (and again while sshd drops it); null when it is up, else the failed
   * attempt (exit 255: the host cannot be reached). A host whose connection this process set up or
   * saw less than half the connection's idle time ago is taken to have it still; should it have
   * ended, ssh makes a new one itself.
   */
  private Result connect(HostSpec host) {
    String key = key(host);
    Long seen = connected.get(key);
    if (seen != null && System.nanoTime() - seen < MASTER_IDLE.toNanos() / 2) {
      connected.put(key, System.nanoTime());
      return null;
    }
    synchronized (connecting.computeIfAbsent(key, k -> new Object())) {
      seen = connected.get(key);
      if (seen != null && System.nanoTime() - seen < MASTER_IDLE.toNanos() / 2) {
        return null;
      }
      List<String> check = new ArrayList<>(base(host));
      check.addAll(List.of("-O", "check", host.ssh()));
      if (exec(check, null, Duration.ofSeconds(10)).ok()) {
        connected.put(key, System.nanoTime());
        return null;
      }
      List<String> open = new ArrayList<>(base(host));
      open.addAll(List.of(host.ssh(), "--", "true"));
      Result r = SshGate.setUp(host.ssh(), () -> exec(open, null, CONNECT_TIMEOUT));
      if (r.ok()) {
        connected.put(key, System.nanoTime());
        return null;
      }
      return r.exit() == 255 || r.exit() == 124 ? new Result(255, r.out(), r.err()) : null;
    }
  }

  private static String key(HostSpec host) {
    return host.ssh() + ":" + host.port();
  }

  /**
   * The local command that runs {@code remote} on the host, for a caller that reads its output as
   * it comes (a long-running process whose progress matters); its standard input is not used.
   */
  public List<String> command(HostSpec host, List<String> remote) {
    ensureControlDir();
    connect(host); // a host that cannot be reached says so when the command runs
    List<String> cmd = new ArrayList<>(base(host));
    cmd.add("-n");
    cmd.add(host.ssh());
    cmd.add("--");
    cmd.add(quote(remote));
    return cmd;
  }

  /**
   * Copies the contents of local directory {@code from} into {@code to} on the host (created);
   * returns the bytes sent over the wire.
   */
  public long copy(HostSpec host, Path from, String to, boolean rsync) {
    ensureControlDir();
    Result up = connect(host);
    if (up != null) {
      throw failure(host, up, "copying to " + to);
    }
    if (rsync) {
      List<String> cmd = new ArrayList<>();
      cmd.add("rsync");
      cmd.add("-a");
      cmd.add("--stats");
      cmd.add("-e");
      cmd.add(quote(base(host)));
      cmd.add(from.toString() + "/");
      cmd.add(host.ssh() + ":" + to + "/");
      Result r = exec(cmd, null, Duration.ofHours(1));
      if (!r.ok()) {
        throw failure(host, r, "rsync to " + to);
      }
      Matcher m = RSYNC_SENT.matcher(r.out());
      return m.find() ? Long.parseLong(m.group(1).replaceAll("[,.]", "")) : 0;
    }
    // tar over ssh, counting what goes through
    List<String> tar = List.of("tar", "-C", from.toString(), "-cf", "-", ".");
    List<String> cmd = new ArrayList<>(base(host));
    cmd.add(host.ssh());
    cmd.add("--");
    cmd.add(quote(List.of("sh", "-c", "mkdir -p \"$1\" && tar -C \"$1\" -xf -", "sh", to)));
    try {
      Process packer =
          new ProcessBuilder(tar).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      Process sender =
          new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      long bytes;
      try (InputStream in = packer.getInputStream();
          var out = sender.getOutputStream()) {
        bytes = in.transferTo(out);
      }
      String err = new String(sender.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      if (packer.waitFor() != 0 || sender.waitFor() != 0) {
        throw failure(host, new Result(sender.exitValue(), "", err), "tar to " + to);
      }
      return bytes;
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot copy to " + host.ssh() + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrscaleException.failed("interrupted while copying to " + host.ssh());
    }
  }

  /** Copies {@code from} on the host (a directory) into local {@code to}; missing is no error. */
  public void fetch(HostSpec host, String from, Path to, boolean rsync) {
    ensureControlDir();
    if (connect(host) != null) {
      return; // missing is no error: the host's logs stay where they are
    }
    try {
      Files.createDirectories(to);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> cmd = new ArrayList<>();
    if (rsync) {
      cmd.addAll(List.of("rsync", "-a", "-e", quote(base(host)), host.ssh() + ":" + from + "/"));
      cmd.add(to + "/");
      exec(cmd, null, Duration.ofMinutes(30));
      return;
    }
    cmd.addAll(base(host));
    cmd.add(host.ssh());
    cmd.add("--");
    cmd.add(quote(List.of("sh", "-c", "[ ! -d \"$1\" ] || tar -C \"$1\" -cf - .", "sh", from)));
    try {
      Process sender =
          new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      Process unpacker =
          new ProcessBuilder("tar", "-C", to.toString(), "-xf", "-")
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      try (InputStream in = sender.getInputStream();
          var out = unpacker.getOutputStream()) {
        in.transferTo(out);
      }
      sender.waitFor();
      unpacker.waitFor();
    } catch (IOException e) {
      // logs are a convenience: a host that cannot give them leaves the local copy as it was
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Where {@link #putOnce} put a file, and the bytes it sent (0: it was there). */
  public record Put(String path, long bytes) {}

  /**
   * Puts {@code file} on the host once: at {@code hostDir/jars/DIGEST/NAME}, DIGEST the SHA-256 of
   * its content, copied only when it is not there yet (into a .partial directory, then renamed).
   */
  public Put putOnce(HostSpec host, String hostDir, Path file, boolean rsync) {
    String dir = hostDir + "/jars/" + ContentDigest.ofFile(file);
    String path = dir + "/" + file.getFileName();
    if ("yes".equals(agentOk(host, Duration.ofSeconds(60), "has", path).strip())) {
      return new Put(path, 0);
    }
    Path stage;
    try {
      stage = Files.createTempDirectory("solrscale-put");
      // with its time: a class-data archive takes the jar only with the time it was made with
      Files.copy(
          file,
          stage.resolve(file.getFileName()),
          java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot stage " + file + ": " + e.getMessage());
    }
    try {
      agentOk(host, Duration.ofSeconds(60), "mkdir", hostDir + "/jars");
      long bytes = copy(host, stage, dir + ".partial", rsync);
      agentOk(host, Duration.ofSeconds(60), "commit", dir + ".partial", dir);
      return new Put(path, bytes);
    } finally {
      FileTrees.delete(stage);
    }
  }

  /** The host name or address ssh connects to for {@code host}, after the ssh config (ssh -G). */
  public String hostName(HostSpec host) {
    List<String> cmd = new ArrayList<>(options(host));
    cmd.add("-G");
    cmd.add(host.ssh());
    Result r = exec(cmd, null, Duration.ofSeconds(10));
    for (String line : r.out().split("\n")) {
      if (line.startsWith("hostname ")) {
        return line.substring(9).strip();
      }
    }
    throw SolrscaleException.usage(
        "ssh cannot tell the address of host '" + host.ssh() + "': " + lastLine(r.err()));
  }

  /** Ends the multiplexed connection to the host, if there is one. */
  public void close(HostSpec host) {
    connected.remove(key(host));
    List<String> cmd = new ArrayList<>(base(host));
    cmd.addAll(List.of("-O", "exit", host.ssh()));
    if (Files.isDirectory(controlDir)) {
      exec(cmd, null, Duration.ofSeconds(10));
    }
  }

  /** Makes the directory of the control sockets (ssh does not). */
  private void ensureControlDir() {
    try {
      Files.createDirectories(controlDir);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot create " + controlDir + ": " + e.getMessage());
    }
  }

  /**
   * ssh with the options every call uses. The first call to a host becomes the master connection
   * and stays for {@link #MASTER_IDLE} after the last one (OpenSSH detaches it from this call's
   * pipes); when two calls race to be master, the second one simply does not multiplex.
   */
  private List<String> base(HostSpec host) {
    return options(host);
  }

  private List<String> options(HostSpec host) {
    List<String> cmd = new ArrayList<>(List.of("ssh"));
    if (Files.isRegularFile(config())) {
      cmd.addAll(List.of("-F", config().toString()));
    }
    cmd.addAll(
        List.of(
            "-o",
            "BatchMode=yes",
            "-o",
            "StrictHostKeyChecking=accept-new",
            "-o",
            "ConnectTimeout=10",
            "-o",
            "ServerAliveInterval=15",
            "-o",
            "ControlMaster=auto",
            "-o",
            "ControlPersist=" + MASTER_IDLE.toSeconds(),
            "-o",
            "ControlPath=" + controlDir.resolve("%C")));
    if (host.port() != null) {
      cmd.addAll(List.of("-p", host.port().toString()));
    }
    return cmd;
  }

  /** Sockets in the state directory, unless that path is too long for a unix socket. */
  public static Path controlDir(Path stateDir) {
    Path dir = stateDir.resolve("ssh").toAbsolutePath();
    // a socket path holds at most 107 bytes; ssh adds "/" + 40 (%C) + 17 (a temporary suffix)
    if (dir.toString().length() + 58 <= 100) {
      return dir;
    }
    try {
      byte[] h =
          MessageDigest.getInstance("SHA-256")
              .digest(dir.toString().getBytes(StandardCharsets.UTF_8));
      return Path.of("/tmp", "solrscale-ssh-" + HexFormat.of().formatHex(h, 0, 6));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Result exec(List<String> cmd, String stdin, Duration timeout) {
    return LocalRemote.exec(cmd, stdin, timeout);
  }

  private static String lastLine(String text) {
    String[] lines = text.strip().split("\n");
    String last = lines[lines.length - 1].strip();
    return last.isEmpty() ? "no message" : last;
  }

  /** Arguments quoted for a POSIX shell, joined by spaces. */
  static String quote(List<String> args) {
    StringBuilder sb = new StringBuilder();
    for (String a : args) {
      if (sb.length() > 0) {
        sb.append(' ');
      }
      if (!a.isEmpty() && a.matches("[A-Za-z0-9_./:=@%+,-]+")) {
        sb.append(a);
      } else {
        sb.append('\'').append(a.replace("'", "'\\''")).append('\'');
      }
    }
    return sb.toString();
  }
}
