package org.solrscale.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.solrscale.spec.HostSpec;
import org.solrscale.spec.SolrscaleException;

/** A host reached over SSH ({@link Ssh}: the user's OpenSSH, one multiplexed connection). */
public final class SshRemote implements Remote {
  private static final Duration QUICK = Duration.ofSeconds(60);

  /**
   * Reads NAME=VALUE lines from standard input into the environment, then starts the command in its
   * own session with its output appended to the console file; waits until the pid runs the command
   * itself (setsid execs in place) and prints it.
   */
  private static final String LAUNCH =
      "d=$1; c=$2; shift 2; mkdir -p \"$d\" \"$(dirname \"$c\")\" && cd \"$d\" || exit 3; "
          + "while IFS= read -r kv; do export \"$kv\"; done; "
          + "setsid \"$@\" >>\"$c\" 2>&1 </dev/null & pid=$!; i=0; "
          + "while [ $i -lt 200 ] && [ -d /proc/$pid ] && "
          + "[ \"$(tr '\\0' '\\n' </proc/$pid/cmdline 2>/dev/null | head -n1)\" != \"$1\" ]; "
          + "do sleep 0.05; i=$((i + 1)); done; echo $pid";

  private final Ssh ssh;
  private final HostSpec host;
  private final java.util.function.BooleanSupplier rsync;

  /**
   * {@code rsync}: whether the host has rsync (else files go as tar over ssh), asked only when
   * files are copied: a command that only runs others (status) does not probe the host for it.
   */
  public SshRemote(Ssh ssh, HostSpec host, java.util.function.BooleanSupplier rsync) {
    this.ssh = ssh;
    this.host = host;
    this.rsync = rsync;
  }

  @Override
  public Result run(List<String> command, String stdin, Duration timeout) {
    return ssh.run(host, command, stdin, timeout);
  }

  @Override
  public long start(
      List<String> command, String dir, String console, Map<String, String> environment) {
    List<String> remote = new ArrayList<>(List.of("sh", "-c", LAUNCH, "sh", dir, console));
    remote.addAll(command);
    StringBuilder env = new StringBuilder();
    environment.forEach((k, v) -> env.append(k).append('=').append(v).append('\n'));
    Remote.Result r = ssh.run(host, remote, env.toString(), QUICK);
    if (!r.ok()) {
      throw ssh.failure(host, r, "starting " + command.get(0));
    }
    try {
      return Long.parseLong(r.out().strip());
    } catch (NumberFormatException e) {
      throw SolrscaleException.failed(
          "could not start " + command.get(0) + " on host " + host.ssh() + ": " + r.out().strip());
    }
  }

  @Override
  public List<String> command(List<String> command) {
    return ssh.command(host, command);
  }

  @Override
  public long upload(Path from, String to) {
    // rsync makes the last folder of the path only
    Remote.Result r = ssh.run(host, List.of("mkdir", "-p", "--", to), null, QUICK);
    if (!r.ok()) {
      throw ssh.failure(host, r, "mkdir " + to);
    }
    return ssh.copy(host, from, to, rsync.getAsBoolean());
  }

  @Override
  public void download(String from, Path to) {
    ssh.fetch(host, from, to, rsync.getAsBoolean());
  }

  @Override
  public void close() {
    ssh.close(host);
  }
}
