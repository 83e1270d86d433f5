package org.solrscale.net;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.solrscale.spec.SolrscaleException;

/** A lab host's sshd: its keys and configuration, started in its namespace and stopped by pid. */
final class Sshd {
  static final Path BINARY = Path.of("/usr/sbin/sshd");

  private Sshd() {}

  static String keygen() {
    return Commands.which("ssh-keygen")
        .orElseThrow(
            () ->
                SolrscaleException.environment(
                    "lab networks need ssh-keygen; install OpenSSH's client "
                        + "(e.g. apt-get install openssh-client)"));
  }

  static String setsid() {
    return Commands.which("setsid")
        .orElseThrow(
            () ->
                SolrscaleException.environment(
                    "lab networks need setsid; install util-linux (e.g. apt-get install util-linux)"));
  }

  /** The configuration of {@code host}'s sshd, which lets in only the net's client key. */
  static String config(NetHost host, Path authorizedKeys) {
    return config(host, authorizedKeys, null);
  }

  /** The same, with sshd's {@code MaxStartups} (null: sshd's default, 10:30:100). */
  static String config(NetHost host, Path authorizedKeys, String maxStartups) {
    return String.join(
        "\n",
        "# written by solrscale: the sshd of lab host " + host.name(),
        "ListenAddress " + host.address(),
        "Port 22",
        "HostKey " + NetFiles.hostKey(host),
        "AuthorizedKeysFile " + authorizedKeys,
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "PermitRootLogin prohibit-password",
        "UsePAM no",
        "StrictModes no",
        "PidFile none",
        "Subsystem sftp internal-sftp",
        "SetEnv SOLRSCALE_HOST_DIR=" + host.dir(),
        maxStartups == null ? "" : "MaxStartups " + maxStartups + "\n");
  }

  /** A new ed25519 key pair without passphrase: {@code file} and {@code file}.pub. */
  static void generateKey(Path file, String comment) {
    try {
      Files.deleteIfExists(file);
      Files.deleteIfExists(Path.of(file + ".pub"));
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot replace " + file + ": " + e.getMessage());
    }
    Commands.check(
        "make an ssh key",
        List.of(keygen(), "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", file.toString()));
  }

  /** The public half of a key pair, without its comment: "ssh-ed25519 AAAA...". */
  static String publicKey(Path privateKey) {
    try {
      String[] w = Files.readString(Path.of(privateKey + ".pub")).strip().split("\\s+");
      return w[0] + " " + w[1];
    } catch (IOException | ArrayIndexOutOfBoundsException e) {
      throw SolrscaleException.environment(
          "cannot read the public key " + privateKey + ".pub: " + e.getMessage());
    }
  }

  /**
   * Starts {@code host}'s sshd in its namespace, in the foreground (-D) and in a session of its own
   * (so Ctrl-C on solrscale does not reach it), and returns its pid. `ip netns exec`, sh and setsid
   * all exec in place (setsid forks only when it is a process group leader, which a child of the
   * JVM is not), so the child's pid is the sshd's; should that ever change, the sshd is found among
   * the namespace's processes by its configuration file.
   */
  /**
   * Shell commands that mount this machine's cgroup file systems again inside a lab host: `ip netns
   * exec` mounts a sysfs of the namespace's own over /sys, without them, and a host's nodes need
   * them for the cgroups of a host's limits. The same hierarchies are mounted (a cgroup v1
   * hierarchy mounted with the same controllers is the one that exists, v2 has one), in this mount
   * namespace of the host's only. Read from /proc/self/mountinfo; a mount that fails leaves the
   * host without cgroups, which the host agent then reports in one line.
   */
  static String cgroupMounts() {
    StringBuilder sh = new StringBuilder();
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
        String[] f = line.split(" ");
        int dash = java.util.Arrays.asList(f).indexOf("-");
        if (f.length < 5 || dash < 0 || dash + 3 >= f.length) {
          continue;
        }
        String point = f[4];
        String type = f[dash + 1];
        String options = f[dash + 3];
        boolean cgroup = type.equals("cgroup") || type.equals("cgroup2");
        if (!point.equals("/sys/fs/cgroup") && !(cgroup && point.startsWith("/sys/fs/cgroup/"))) {
          continue;
        }
        if (!cgroup && !type.equals("tmpfs")) {
          continue;
        }
        if (!point.matches("/sys/fs/cgroup[A-Za-z0-9_./=-]*")
            || !options.matches("[A-Za-z0-9_,=.]*")) {
          continue; // nothing to quote
        }
        sh.append("mkdir -p ")
            .append(point)
            .append(" && mount -t ")
            .append(type)
            .append(" -o ")
            .append(options)
            .append(' ')
            .append(type)
            .append(' ')
            .append(point)
            .append(" 2>/dev/null; ");
      }
    } catch (IOException e) {
      return ""; // no limits for this host's nodes, said by the agent when asked for them
    }
    return sh.toString();
  }

  static long start(NetHost host) {
    Path config = NetFiles.sshdConfig(host);
    Path log = NetFiles.sshdLog(host);
    List<String> cmd =
        List.of(
            Ip.ip(),
            "netns",
            "exec",
            host.namespace(),
            "/bin/sh",
            "-c",
            cgroupMounts() + "exec \"$@\"",
            "sh",
            setsid(),
            BINARY.toString(),
            "-D",
            "-f",
            config.toString(),
            "-E",
            log.toString());
    Process p;
    try {
      p =
          new ProcessBuilder(cmd)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .start();
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot start the sshd of " + host.name() + ": " + e.getMessage());
    }
    long start = System.nanoTime();
    while (System.nanoTime() - start < 5_000_000_000L) {
      if (isOurs(p.pid(), host)) {
        return p.pid();
      }
      if (System.nanoTime() - start > 1_000_000_000L) { // not in place after all: look for it
        Optional<Long> found =
            Ip.pids(host.namespace()).stream().filter(q -> isOurs(q, host)).findFirst();
        if (found.isPresent()) {
          return found.get();
        }
      }
      if (!p.isAlive()) {
        break;
      }
      sleep(10);
    }
    if (p.isAlive()) {
      p.destroyForcibly(); // our own child, by its handle
    }
    throw SolrscaleException.environment(
        "the sshd of " + host.name() + " did not start: " + lastLine(log));
  }

  /**
   * Whether {@code host}'s recorded sshd runs: its process is ours by its command line, read again
   * a few times while the process lives. sshd rewrites its title in place as it starts listening
   * and as connections come and go, and a read of /proc can catch it half-written: seen as "the
   * sshd of hit-h1 died" with an empty log, twice in CI, the first time a net came up.
   */
  static boolean runs(NetHost host) {
    long pid = host.sshdPid();
    for (int i = 0; i < 10; i++) {
      if (isOurs(pid, host)) {
        return true;
      }
      if (pid <= 0 || !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
        return false;
      }
      sleep(20);
    }
    return false;
  }

  /**
   * Whether {@code pid} is the sshd listening for {@code host}: its command line (which sshd
   * prefixes with "sshd: " once it listens, and which, unlike its program, anyone may read) is the
   * one it was started with.
   */
  static boolean isOurs(long pid, NetHost host) {
    return pid > 0
        && Procs.cmdline(pid)
            .contains(
                BINARY + " -D -f " + NetFiles.sshdConfig(host) + " -E " + NetFiles.sshdLog(host));
  }

  /**
   * The host's sshd and the sshd processes it forked for ssh sessions still open (their parents
   * lead back to it); what runs in those sessions is not among them.
   */
  static List<Long> processes(NetHost host, List<Long> namespacePids) {
    List<Long> own = new ArrayList<>();
    if (!runs(host)) {
      return own;
    }
    own.add(host.sshdPid());
    for (long pid : namespacePids) {
      if (pid != host.sshdPid() && descendsFromSshd(pid, host.sshdPid())) {
        own.add(pid);
      }
    }
    return own;
  }

  private static boolean descendsFromSshd(long pid, long sshd) {
    for (long p = pid; p > 1; p = Procs.ppid(p)) {
      if (p == sshd) {
        return true;
      }
      if (!Procs.exe(p).equals(BINARY.toString())) {
        return false;
      }
    }
    return false;
  }

  /** SIGTERM to each of {@code pids}, SIGKILL to those still there after 5 s. */
  static void stop(List<Long> pids) {
    List<ProcessHandle> handles =
        pids.stream().map(ProcessHandle::of).flatMap(Optional::stream).toList();
    handles.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (handles.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
      sleep(20);
    }
    // a handle knows its process's start time, so a pid reused meanwhile is not signalled
    handles.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
  }

  static String lastLine(Path log) {
    try {
      List<String> lines =
          Files.readAllLines(log).stream().map(String::strip).filter(l -> !l.isEmpty()).toList();
      return lines.isEmpty() ? "its log " + log + " is empty" : lines.get(lines.size() - 1);
    } catch (IOException e) {
      return "no log at " + log;
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrscaleException.environment("interrupted");
    }
  }
}
