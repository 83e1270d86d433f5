package org.solrscale.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.capacity.CalibrationServer;

/**
 * `capacity` against a server whose capacity is known in advance (workers x 1000 / service ms): the
 * search must find it within its tolerance, and must say "driver-bound" when the driver, held to a
 * sliver of a core by a cgroup, cannot keep up.
 */
class CapacityIT {
  static final ObjectMapper JSON = new ObjectMapper();

  static Path queries(Path dir) throws Exception {
    Path q = dir.resolve("q.txt");
    Files.writeString(q, "q=a&_template=term\nq=b&_template=term\nq=%22a+b%22&_template=phrase\n");
    return q;
  }

  @Test
  void findsTheKnownCapacityOfACalibrationServerWithinTheTolerance(@TempDir Path dir)
      throws Exception {
    try (CalibrationServer server = CalibrationServer.start(0, 4, 10)) {
      Path out = dir.resolve("cap");
      Cli.Result r =
          Cli.run(
              "capacity",
              "--url",
              server.url(),
              "--collection",
              "calib",
              "--queries",
              queries(dir).toString(),
              "--slo",
              "p95<100ms,errors<0.1%", // p95: 292 requests a probe, quicker than p99's 1,522
              "--start-rate",
              "100",
              "--warmup",
              "1s",
              "--min-duration",
              "2s",
              "--out",
              out.toString(),
              "--json");
      assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
      JsonNode c = JSON.readTree(r.out());
      double known = server.capacity(); // 400 requests/s
      assertThat(c.get("converged").asBoolean()).as(r.out()).isTrue();
      assertThat(c.get("capacity").asDouble()).as(r.out()).isBetween(known * 0.95, known);
      assertThat(c.get("high").asDouble()).isGreaterThan(c.get("low").asDouble());
      assertThat((c.get("high").asDouble() - c.get("low").asDouble()) / c.get("low").asDouble())
          .isLessThanOrEqualTo(0.05);
      assertThat(c.get("requests_per_probe").asLong()).isEqualTo(292);
      JsonNode probes = c.get("probes");
      assertThat(probes.size()).isBetween(5, 24);
      int i = 0;
      for (JsonNode p : probes) {
        i++;
        JsonNode m = p.get("measured");
        // each probe long enough for its p95: the requests it counted, and its own files
        assertThat(m.get("count").asLong()).as(p.toString()).isGreaterThanOrEqualTo(292);
        Path probeDir = out.resolve(String.format("probe-%02d", i));
        JsonNode summary = JSON.readTree(probeDir.resolve("summary.json").toFile());
        assertThat(summary.get("count").asLong()).isEqualTo(m.get("count").asLong());
        assertThat(summary.get("latency_ms").get("p95").asDouble())
            .isEqualTo(m.get("latency_ms").get("p95").asDouble());
        // the verdict from the figures, independently of the search
        boolean meets =
            m.get("latency_ms").get("p95").asDouble() < 100
                && m.get("error_rate").asDouble() <= 0.001;
        assertThat(p.get("meets").asBoolean()).as(p.toString()).isEqualTo(meets);
        if (m.get("rate").asDouble() <= known * 0.9) {
          assertThat(meets).as("below the known capacity: " + p).isTrue();
        }
        if (m.get("rate").asDouble() >= known * 1.1) {
          assertThat(meets).as("above the known capacity: " + p).isFalse();
        }
      }
      assertThat(out.resolve("capacity.json")).exists();
    }
  }

  @Test
  void aDriverHeldToASliverOfACoreIsReportedDriverBound(@TempDir Path dir) throws Exception {
    String group = "solrscale-capacity-it-" + ProcessHandle.current().pid();
    Path cg = Path.of("/sys/fs/cgroup/cpu", group);
    Files.createDirectory(cg);
    Process p = null;
    try (CalibrationServer server = CalibrationServer.start(0, 64, 1)) {
      Files.writeString(cg.resolve("cpu.cfs_period_us"), "100000");
      Files.writeString(cg.resolve("cpu.cfs_quota_us"), "20000"); // a fifth of one core
      String java = ProcessHandle.current().info().command().orElse("java");
      p =
          new ProcessBuilder(
                  "sh",
                  "-c",
                  "echo $$ > " + cg.resolve("cgroup.procs") + " && exec \"$@\"",
                  "sh",
                  java,
                  "-jar",
                  Path.of("target/solrscale.jar").toAbsolutePath().toString(),
                  "capacity",
                  "--url",
                  server.url(),
                  "--collection",
                  "calib",
                  "--queries",
                  queries(dir).toString(),
                  "--slo",
                  "p99<100ms",
                  "--start-rate",
                  "50000",
                  "--warmup",
                  "1s",
                  "--min-duration",
                  "2s",
                  "--json")
              .redirectErrorStream(false)
              .redirectOutput(dir.resolve("out.json").toFile())
              .redirectError(dir.resolve("err.txt").toFile())
              .start();
      assertThat(p.waitFor(180, TimeUnit.SECONDS)).as("capacity ended").isTrue();
      String err = Files.readString(dir.resolve("err.txt"));
      assertThat(p.exitValue()).as(err).isEqualTo(1);
      JsonNode c = JSON.readTree(dir.resolve("out.json").toFile());
      assertThat(c.get("ended").asText()).startsWith("driver-bound at 50000 requests/s: driver");
      assertThat(c.has("capacity")).isFalse();
      assertThat(c.get("probes")).hasSize(1);
    } finally {
      if (p != null && p.isAlive()) {
        p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
      for (String pid : List.of(Files.readString(cg.resolve("cgroup.procs")).split("\\s+"))) {
        if (!pid.isBlank()) {
          ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
        }
      }
      Files.delete(cg);
    }
  }
}
