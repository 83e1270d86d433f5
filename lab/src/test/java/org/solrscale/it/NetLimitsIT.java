package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.solrscale.net.SshConfig;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.testing.Needs;

/**
 * A lab host limited like a small machine (cgroup v1 here): half a core and 256 MiB, page cache
 * included. Measured from outside: a busy loop started over SSH gets about half a core, and a 400
 * MB file written on the host never takes the host's memory use above its limit.
 */
class NetLimitsIT {
  static final String NET = "lim";
  static final Path CPU = Path.of("/sys/fs/cgroup/cpu");
  static final Path MEMORY = Path.of("/sys/fs/cgroup/memory");
  static final Path CPUSET = Path.of("/sys/fs/cgroup/cpuset");

  @BeforeAll
  static void up() {
    Needs.root();
    Needs.sshd();
    // not a missing part but the machine's kind of cgroups: a skip even under CI=true
    assumeTrue(Files.isDirectory(CPU) && Files.isDirectory(MEMORY), "this test reads cgroup v1");
    Cli.run("net", "down", "--name", NET, "--if-exists");
    Cli.Result r =
        Cli.run(
            "net",
            "up",
            "--name",
            NET,
            "--hosts",
            "1",
            "--cpus",
            "0.5",
            "--memory",
            "256m",
            "--cores",
            "1");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("0.5 CPUs each", "256m of memory each", "1 core each");
  }

  @AfterAll
  static void down() throws IOException {
    Cli.Result r = Cli.run("net", "down", "--name", NET, "--if-exists");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(cgroup(CPU, "cpu")).doesNotExist();
    assertThat(cgroup(MEMORY, "memory")).doesNotExist();
    assertThat(cgroup(CPUSET, "cpuset")).doesNotExist();
  }

  /** The host's cgroup of a controller: a child of the one this JVM runs in. */
  static Path cgroup(Path root, String controller) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
      String[] f = line.split(":", 3);
      if (List.of(f[1].split(",")).contains(controller)) {
        return root.resolve(f[2].substring(1)).resolve("solrscale-" + NET + "-h1");
      }
    }
    throw new AssertionError("no " + controller + " cgroup");
  }

  static Process ssh(String command) throws IOException {
    return new ProcessBuilder(
            "ssh",
            "-F",
            SshConfig.file(SolrscaleHome.fromEnvironment()).toString(),
            "-o",
            "BatchMode=yes",
            NET + "-h1",
            command)
        .redirectErrorStream(true)
        .start();
  }

  static long cpuTicks(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime + stime
  }

  @Test
  void aBusyLoopGetsHalfACoreAndThePageCacheCountsAgainstTheMemoryLimit() throws Exception {
    assertThat(Files.readString(cgroup(CPU, "cpu").resolve("cpu.cfs_quota_us")).strip())
        .isEqualTo("50000");
    assertThat(Files.readString(cgroup(MEMORY, "memory").resolve("memory.limit_in_bytes")).strip())
        .isEqualTo(Long.toString(256L << 20));
    assertThat(Files.readString(cgroup(CPUSET, "cpuset").resolve("cpuset.cpus")).strip())
        .isEqualTo("0");
    assertThat(Cli.run("net", "status", "--name", NET).out())
        .contains("cpus 0.5, cores 0, memory 256m");

    // a busy loop started over ssh, stopped by its pid after 3 s
    Process p = ssh("setsid sh -c 'while :; do :; done' >/dev/null 2>&1 </dev/null & echo $!");
    long pid = Long.parseLong(new String(p.getInputStream().readAllBytes()).strip());
    try {
      assertThat(Files.readString(Path.of("/proc/" + pid + "/cgroup")))
          .contains("solrscale-" + NET + "-h1");
      // the kernel runs it on the host's one core only
      assertThat(Files.readString(Path.of("/proc/" + pid + "/status")))
          .containsPattern("Cpus_allowed_list:\\s+0\\n");
      long t0 = cpuTicks(pid);
      long w0 = System.nanoTime();
      Thread.sleep(3000); // the window the CPU share is measured over, not a wait
      double cpu = (cpuTicks(pid) - t0) / 100.0; // clock ticks of 10 ms
      double wall = (System.nanoTime() - w0) / 1e9;
      assertThat(cpu / wall).as("cores used").isBetween(0.3, 0.6);
    } finally {
      new ProcessBuilder("kill", Long.toString(pid)).start().waitFor();
    }

    // 400 MB written on a 256 MiB host: the page cache is reclaimed within the limit
    Path mem = cgroup(MEMORY, "memory");
    Files.writeString(mem.resolve("memory.max_usage_in_bytes"), "0\n");
    Process dd =
        ssh(
            "dd if=/dev/zero of=$SOLRSCALE_HOST_DIR/big bs=1M count=400 2>&1 && sync"
                + " && ls -l $SOLRSCALE_HOST_DIR/big && rm $SOLRSCALE_HOST_DIR/big");
    String out = new String(dd.getInputStream().readAllBytes());
    assertThat(dd.waitFor()).as(out).isZero();
    assertThat(out).contains("419430400");
    long peak = Long.parseLong(Files.readString(mem.resolve("memory.max_usage_in_bytes")).strip());
    assertThat(peak).isLessThanOrEqualTo(256L << 20).isGreaterThan(64L << 20);
  }
}
