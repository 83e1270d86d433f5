package org.solrscale.spec;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * The kinds of fault there are, with what a scenario and the CLI need to know of each: its name,
 * what it does (for help and errors), whether the monkey may draw it, and whether taking down what
 * it takes is its very purpose (so the safety rules do not apply). This is the registry: adding a
 * kind is one constant here and one class in {@code chaos} (see FaultActions), which the compiler
 * makes sure is named for every constant.
 */
public enum FaultKind {
  KILL("kill", "SIGKILL Solr nodes (a crash), started again when healed", true, false),
  STOP("stop", "stop Solr nodes gracefully, started again when healed", true, false),
  PAUSE(
      "pause",
      "SIGSTOP Solr nodes (a frozen JVM, like a long GC pause), SIGCONT when healed",
      true,
      false),
  ZK_KILL("zk-kill", "SIGKILL one ZooKeeper server, started again when healed", true, false),
  ZK_QUORUM(
      "zk-quorum", "SIGKILL a majority of the ZooKeeper ensemble (the quorum is lost)", true, true),
  ROLLING_RESTART(
      "rolling-restart",
      "restart every Solr node in turn, each once its replicas are active",
      false,
      false),
  PARTITION(
      "partition",
      "cut hosts (a host, host-of:NODE, or all with a label such as dc=east) off from the"
          + " cluster's other hosts, joined again when healed (a cluster on hosts)",
      false,
      false),
  BANDWIDTH(
      "bandwidth",
      "cap what hosts send to 'rate' (e.g. 1mbit), uncapped when healed (a cluster on hosts)",
      false,
      false),
  LATENCY(
      "latency",
      "delay what crosses between hosts (a host, host-of:NODE, a label, or a link A<->B) by"
          + " 'delay' each way, with 'jitter' and 'loss' if given; nodes stay up",
      true,
      false),
  LOSS(
      "loss",
      "drop a share 'loss' (e.g. 1%) of what crosses between hosts (as latency's targets)",
      true,
      false),
  LINK_DOWN(
      "link-down",
      "take lab-network hosts' links down (nothing in or out), up again when healed",
      false,
      false),
  MONKEY(
      "monkey", "seeded random faults of the kinds in 'faults' during the duration", false, false);

  private final String id;
  private final String help;
  private final boolean monkeyMayDraw;
  private final boolean inherentlyUnsafe;

  FaultKind(String id, String help, boolean monkeyMayDraw, boolean inherentlyUnsafe) {
    this.id = id;
    this.help = help;
    this.monkeyMayDraw = monkeyMayDraw;
    this.inherentlyUnsafe = inherentlyUnsafe;
  }

  /** The name written in scenarios and on the command line. */
  public String id() {
    return id;
  }

  public String help() {
    return help;
  }

  public boolean monkeyMayDraw() {
    return monkeyMayDraw;
  }

  /**
   * Taking down what it takes is the point (a ZooKeeper majority): the safety rules let it through.
   */
  public boolean inherentlyUnsafe() {
    return inherentlyUnsafe;
  }

  public static Optional<FaultKind> named(String id) {
    return Arrays.stream(values()).filter(k -> k.id.equals(id)).findFirst();
  }

  /** Every kind's name, in order. */
  public static List<String> names() {
    return Arrays.stream(values()).map(FaultKind::id).toList();
  }

  /** The kinds a monkey may draw from. */
  public static List<String> monkeyNames() {
    return Arrays.stream(values()).filter(FaultKind::monkeyMayDraw).map(FaultKind::id).toList();
  }

  /** The names as picocli's completion candidates and ${COMPLETION-CANDIDATES} in help. */
  public static final class Names implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return names().iterator();
    }
  }
}
