package org.solrscale.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A host solrscale can reach: run a command, start a detached process, copy trees to and from it.
 * Everything a host does for a cluster (starting a node, signals, jcmd, faults, logs) is written
 * once on top of these, in {@link HostOps}; a new way to reach hosts (a container, a pod) is one
 * more implementation of this interface. {@link LocalRemote} is this machine, {@link SshRemote} a
 * host over SSH.
 */
public interface Remote {
  /** What a command printed, and its exit status (124: timed out; 255: ssh could not connect). */
  record Result(int exit, String out, String err) {
    public boolean ok() {
      return exit == 0;
    }
  }

  /**
   * Runs {@code command} on the host with {@code stdin} (null: none); waits at most {@code
   * timeout}.
   */
  Result run(List<String> command, String stdin, Duration timeout);

  /**
   * Starts {@code command} detached (its own session, standard input /dev/null, output appended to
   * {@code console}) in {@code dir} (created) with {@code environment} added, and returns its pid
   * once it is the command itself. The environment never appears on a command line.
   */
  long start(List<String> command, String dir, String console, Map<String, String> environment);

  /**
   * The command to run on this machine that runs {@code command} on the host, for a caller that
   * reads its output as it comes; its standard input is not used.
   */
  List<String> command(List<String> command);

  /**
   * Copies the contents of local directory {@code from} into {@code to} on the host; bytes sent.
   */
  long upload(Path from, String to);

  /**
   * Copies the contents of directory {@code from} on the host into local {@code to} (created); a
   * missing {@code from} is no error, and nothing is copied when both are the same place.
   */
  void download(String from, Path to);

  /** Lets go of what reaching the host holds (e.g. a multiplexed SSH connection). */
  void close();
}
