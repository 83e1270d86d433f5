package org.solrscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real processes (bash running sleep), started, signalled and stopped by pid. */
class LocalProcessesTest {
  private final LocalProcesses processes = new LocalProcesses();
  private long pid;
  private String marker;

  private long startSleeper(Path dir, String node) {
    marker = LocalProcesses.marker("unit", node);
    // the marker is bash's $0, so it is part of the command line as for a real node;
    // two commands keep bash from exec'ing sleep in its place
    pid =
        processes.start(
            List.of("bash", "-c", "sleep 60; exit 0", marker), dir, dir.resolve("console.log"));
    return pid;
  }

  @AfterEach
  void cleanUp() {
    if (pid > 0) {
      processes.kill(pid, marker);
    }
  }

  @Test
  void pauseResumeAndGracefulStop(@TempDir Path dir) {
    startSleeper(dir, "a");
    assertThat(processes.state(pid, marker)).isEqualTo(ProcessState.RUNNING);
    processes.pause(pid, marker);
    assertThat(processes.state(pid, marker)).isEqualTo(ProcessState.PAUSED);
    processes.resume(pid, marker);
    assertThat(processes.state(pid, marker)).isEqualTo(ProcessState.RUNNING);
    processes.pause(pid, marker);
    assertThat(processes.stop(pid, marker, Duration.ofSeconds(10))).isTrue();
    assertThat(processes.state(pid, marker)).isEqualTo(ProcessState.DEAD);
    // our child until the JVM reaps it: wait for that instead of racing the reaper
    ProcessHandle.of(pid).ifPresent(h -> h.onExit().orTimeout(10, TimeUnit.SECONDS).join());
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
  }

  @Test
  void aJustStartedProcessIsNeverTakenForDead(@TempDir Path dir) {
    // right after start the pid goes through Java's spawn helper and setsid before it is the node
    for (int i = 0; i < 30; i++) {
      startSleeper(dir, "fresh" + i);
      assertThat(processes.state(pid, marker)).as("attempt %d", i).isEqualTo(ProcessState.RUNNING);
      assertThat(processes.kill(pid, marker)).isTrue();
    }
    pid = 0;
  }

  @Test
  void killIsImmediate(@TempDir Path dir) {
    startSleeper(dir, "b");
    assertThat(processes.kill(pid, marker)).isTrue();
    assertThat(processes.state(pid, marker)).isEqualTo(ProcessState.DEAD);
    assertThat(processes.kill(pid, marker)).isFalse();
  }

  @Test
  void aPidWithoutTheMarkerIsNeverTouched(@TempDir Path dir) {
    startSleeper(dir, "c");
    String otherMarker = LocalProcesses.marker("unit", "someone-else");
    assertThat(processes.state(pid, otherMarker)).isEqualTo(ProcessState.DEAD);
    assertThat(processes.stop(pid, otherMarker, Duration.ofSeconds(1))).isFalse();
    assertThat(processes.state(pid, marker)).isEqualTo(ProcessState.RUNNING);
    assertThat(processes.state(0, marker)).isEqualTo(ProcessState.STOPPED);
  }
}
