package org.solrscale.diagnose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The doctor's window on planted counters: /proc/stat and Solr's metrics read twice. */
class DoctorWindowTest {
  static final long SECOND = 1_000_000_000L;

  static String procStat(long user, long system, long idle, long iowait) {
    return String.format(
        "cpu  %d 0 %d %d %d 0 0 0 0 0%ncpu0 1 0 1 1 0 0 0 0 0 0%ncpu1 1 0 1 1 0 0 0 0 0 0%n"
            + "intr 12345%n",
        user, system, idle, iowait);
  }

  @Test
  void busyIsTheShareOfJiffiesNotIdleBetweenTheTwoReadings() {
    // 2 CPUs x 3 s = 600 jiffies: 30 busy, 570 idle or waiting on I/O
    DoctorWindow.CpuTimes a =
        DoctorWindow.CpuTimes.parse(0, procStat(10_000, 5_000, 900_000, 100), 0);
    DoctorWindow.CpuTimes b =
        DoctorWindow.CpuTimes.parse(3 * SECOND, procStat(10_020, 5_010, 900_560, 110), 0);
    assertThat(a.cpus()).isEqualTo(2);
    assertThat(DoctorWindow.busyPercent(a, b)).isCloseTo(5.0, within(0.01));
  }

  @Test
  void theDoctorsOwnCpuIsNotTheClustersLoad() {
    DoctorWindow.CpuTimes a =
        DoctorWindow.CpuTimes.parse(0, procStat(10_000, 5_000, 900_000, 100), 0);
    // 300 of the 600 jiffies busy, 1.5 s of them the doctor's own: a quarter of 2 CPUs x 3 s
    DoctorWindow.CpuTimes b =
        DoctorWindow.CpuTimes.parse(
            3 * SECOND, procStat(10_200, 5_100, 900_300, 100), 3 * SECOND / 2);
    assertThat(DoctorWindow.busyPercent(a, b)).isCloseTo(25.0, within(0.01));
    assertThat(DoctorWindow.busyPercent(a, null)).isNull();
  }

  static JsonNode metrics(long cpuNanos, long young, long youngMs, long updates) throws Exception {
    return new ObjectMapper()
        .readTree(
            ("{'metrics': {'solr.jvm': {'os.processCpuTime': %d,"
                    + " 'gc.G1-Young-Generation.count': %d, 'gc.G1-Young-Generation.time': %d,"
                    + " 'gc.G1-Old-Generation.count': 1, 'gc.G1-Old-Generation.time': 300,"
                    + " 'gc.G1-Concurrent-GC.count': 99, 'gc.G1-Concurrent-GC.time': 9999},"
                    + " 'solr.core.docs.shard1.replica_n1': {'UPDATE./update.requestTimes':"
                    + " {'count': %d, '1minRate': 250.0}}}}")
                .formatted(cpuNanos, young, youngMs, updates)
                .replace('\'', '"'));
  }

  @Test
  void aNodesRatesAreTheCountersDifferencesOverTheWindow() throws Exception {
    DoctorWindow.Counters a = DoctorWindow.Counters.of(0, metrics(40 * SECOND, 100, 2_000, 5_000));
    DoctorWindow.Counters b =
        DoctorWindow.Counters.of(2 * SECOND, metrics(41 * SECOND, 103, 2_060, 5_030));
    DoctorWindow.Rates r = DoctorWindow.between(a, b, 7.0);
    assertThat(r.window().cpuCores()).isCloseTo(0.5, within(1e-9));
    // the old generation did not move, and concurrent cycles are no pauses
    assertThat(r.window().gcCount()).isEqualTo(3);
    assertThat(r.window().gcMs()).isEqualTo(60);
    assertThat(r.window().hostCpuBusyPercent()).isEqualTo(7.0);
    // 30 requests in 2 s, not the 250/s Solr's 1-minute rate still remembers
    assertThat(r.updatesPerSecond()).containsEntry("solr.core.docs.shard1.replica_n1", 15.0);
  }
}
