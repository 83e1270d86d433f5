package org.solrscale.net;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.solrscale.spec.Sizes;
import org.solrscale.spec.SolrscaleException;

/**
 * A lab host's resources, like a real machine's: its sshd, and so everything started over SSH on
 * it, runs in cgroups of its own ({@code solrscale-HOST}, made as children of the cgroups solrscale
 * runs in): a CPU quota ({@code cpus}, e.g. 0.5 of one core) and a memory limit that counts the
 * page cache, so an index larger than the host's memory is read from disk as on a real machine.
 * cgroup v1 (cpu and memory controllers) or v2 (cpu.max, memory.max), whichever is mounted.
 */
final class Cgroups {
  static final Path ROOT = Path.of("/sys/fs/cgroup");
  static final long PERIOD_US = 100_000;

  private Cgroups() {}

  /**
   * A host's limits: a share of CPU (cores, e.g. 0.5), a number of cores of its own to run on
   * (cpuset; host i gets the next {@code cores} of this machine's, round robin) and memory (e.g.
   * 2g); null for none.
   */
  record Limits(Double cpus, Integer cores, String memory) {
    Limits {
      if (cpus != null && (cpus <= 0 || cpus > 1024)) {
        throw SolrscaleException.usage(
            "--cpus " + cpus + " must be a share above 0, e.g. 0.5 or 2");
      }
      int have = Runtime.getRuntime().availableProcessors();
      if (cores != null && (cores < 1 || cores > have)) {
        throw SolrscaleException.usage(
            "--cores " + cores + " must be 1 to the " + have + " cores this machine has");
      }
      if (memory != null) {
        bytes(memory);
      }
    }

    boolean any() {
      return cpus != null || cores != null || memory != null;
    }

    /** The cores host number {@code index} (from 0) runs on, e.g. "1" or "0,1". */
    String coresOf(int index) {
      int have = Runtime.getRuntime().availableProcessors();
      return IntStream.range(0, cores)
          .map(j -> (index * cores + j) % have)
          .sorted()
          .distinct()
          .mapToObj(Integer::toString)
          .collect(Collectors.joining(","));
    }
  }

  /** 512m, 2g, 1048576: bytes. */
  static long bytes(String size) {
    long bytes = Sizes.bytes(size);
    if (bytes < 0) {
      throw SolrscaleException.usage(
          "--memory '" + size + "' is not a size like 512m or 2g (k, m, g: powers of 1024)");
    }
    return bytes;
  }

  static boolean v2() {
    return Files.isRegularFile(ROOT.resolve("cgroup.controllers"));
  }

  /** The cgroup directory this process is in for {@code controller} (v2: the one hierarchy). */
  static Path own(String controller) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
        String[] f = line.split(":", 3);
        if (f.length < 3) {
          continue;
        }
        boolean match =
            controller == null
                ? f[0].equals("0") && f[1].isEmpty()
                : List.of(f[1].split(",")).contains(controller);
        if (match) {
          Path base = controller == null ? ROOT : ROOT.resolve(controller);
          return base.resolve(f[2].startsWith("/") ? f[2].substring(1) : f[2]);
        }
      }
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot read /proc/self/cgroup: " + e.getMessage());
    }
    throw SolrscaleException.environment(
        "no cgroup "
            + (controller == null ? "v2 hierarchy" : controller + " controller")
            + " is mounted here; --cpus and --memory need one");
  }

  /** The cgroup directories of a host (none made yet, or made: the same names). */
  static List<Path> dirs(NetHost host) {
    String name = "solrscale-" + host.name();
    if (v2()) {
      return List.of(own(null).resolve(name));
    }
    return List.of(
        own("cpu").resolve(name), own("memory").resolve(name), own("cpuset").resolve(name));
  }

  /**
   * Makes the host's cgroups with {@code limits} and puts {@code pid} (its sshd) in them; {@code
   * index} is the host's number in its net, from 0 (which cores it gets).
   */
  static void enter(NetHost host, Limits limits, int index, long pid) {
    if (limits == null || !limits.any()) {
      return;
    }
    try {
      if (v2()) {
        Path dir = dirs(host).get(0);
        enable(dir.getParent(), limits);
        Files.createDirectories(dir);
        if (limits.cpus() != null) {
          write(dir.resolve("cpu.max"), Math.round(limits.cpus() * PERIOD_US) + " " + PERIOD_US);
        }
        if (limits.cores() != null) {
          write(dir.resolve("cpuset.cpus"), limits.coresOf(index));
        }
        if (limits.memory() != null) {
          write(dir.resolve("memory.max"), Long.toString(bytes(limits.memory())));
        }
        write(dir.resolve("cgroup.procs"), Long.toString(pid));
        return;
      }
      List<Path> dirs = dirs(host);
      Path cpu = dirs.get(0);
      Path memory = dirs.get(1);
      Path cpuset = dirs.get(2);
      if (limits.cores() != null) {
        Files.createDirectories(cpuset);
        write(
            cpuset.resolve("cpuset.mems"),
            Files.readString(cpuset.resolveSibling("cpuset.mems")).strip());
        write(cpuset.resolve("cpuset.cpus"), limits.coresOf(index));
        write(cpuset.resolve("cgroup.procs"), Long.toString(pid));
      }
      if (limits.cpus() != null) {
        Files.createDirectories(cpu);
        write(cpu.resolve("cpu.cfs_period_us"), Long.toString(PERIOD_US));
        write(
            cpu.resolve("cpu.cfs_quota_us"), Long.toString(Math.round(limits.cpus() * PERIOD_US)));
        write(cpu.resolve("cgroup.procs"), Long.toString(pid));
      }
      if (limits.memory() != null) {
        Files.createDirectories(memory);
        write(memory.resolve("memory.limit_in_bytes"), Long.toString(bytes(limits.memory())));
        write(memory.resolve("cgroup.procs"), Long.toString(pid));
      }
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot give " + host.name() + " its cgroup limits: " + e.getMessage());
    }
  }

  /** v2: the parent must hand the cpu and memory controllers down to its children. */
  private static void enable(Path parent, Limits limits) throws IOException {
    List<String> want = new ArrayList<>();
    if (limits.cpus() != null) {
      want.add("+cpu");
    }
    if (limits.cores() != null) {
      want.add("+cpuset");
    }
    if (limits.memory() != null) {
      want.add("+memory");
    }
    try {
      write(parent.resolve("cgroup.subtree_control"), String.join(" ", want));
    } catch (IOException e) {
      throw new IOException(
          "cgroup v2 does not let "
              + parent
              + " hand cpu/memory to child cgroups ("
              + e.getMessage()
              + "); run solrscale from a cgroup of its own, e.g. systemd-run --scope");
    }
  }

  private static void write(Path file, String value) throws IOException {
    Files.writeString(file, value + "\n");
  }

  /** Removes the host's cgroups, once nothing runs in them; one already gone is fine. */
  static void remove(NetHost host) {
    for (Path dir : dirs(host)) {
      try {
        if (Files.isDirectory(dir)) {
          Files.delete(dir); // rmdir: the kernel refuses while a process is in it
        }
      } catch (IOException e) {
        throw SolrscaleException.environment(
            "cannot remove cgroup " + dir + ": " + e.getMessage() + " (a process still in it?)");
      }
    }
  }

  /** What a host's cgroups allow now, for status: e.g. "cpus 0.5, memory 512m"; null for none. */
  static String describe(NetHost host) {
    List<String> parts = new ArrayList<>();
    try {
      if (v2()) {
        Path dir = dirs(host).get(0);
        if (Files.isRegularFile(dir.resolve("cpu.max"))) {
          String[] q = Files.readString(dir.resolve("cpu.max")).strip().split(" ");
          if (!q[0].equals("max")) {
            parts.add("cpus " + Double.parseDouble(q[0]) / Double.parseDouble(q[1]));
          }
        }
        if (Files.isRegularFile(dir.resolve("cpuset.cpus"))) {
          String c = Files.readString(dir.resolve("cpuset.cpus")).strip();
          if (!c.isEmpty()) {
            parts.add("cores " + c);
          }
        }
        if (Files.isRegularFile(dir.resolve("memory.max"))) {
          String m = Files.readString(dir.resolve("memory.max")).strip();
          if (!m.equals("max")) {
            parts.add("memory " + (Long.parseLong(m) >> 20) + "m");
          }
        }
      } else {
        Path cpu = dirs(host).get(0).resolve("cpu.cfs_quota_us");
        if (Files.isRegularFile(cpu)) {
          long quota = Long.parseLong(Files.readString(cpu).strip());
          if (quota > 0) {
            parts.add("cpus " + (double) quota / PERIOD_US);
          }
        }
        Path cores = dirs(host).get(2).resolve("cpuset.cpus");
        if (Files.isRegularFile(cores)) {
          parts.add("cores " + Files.readString(cores).strip());
        }
        Path mem = dirs(host).get(1).resolve("memory.limit_in_bytes");
        if (Files.isRegularFile(mem)) {
          parts.add("memory " + (Long.parseLong(Files.readString(mem).strip()) >> 20) + "m");
        }
      }
    } catch (IOException | RuntimeException e) {
      return null;
    }
    return parts.isEmpty() ? null : String.join(", ", parts);
  }
}
