package org.solrscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.testing.Await;

/** This machine as a Remote: real commands, a real detached process, real trees copied. */
class LocalRemoteTest {
  private final LocalRemote remote = new LocalRemote();
  private long pid;

  @AfterEach
  void stopByPid() throws Exception {
    if (pid > 0) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      ProcessHandle.of(pid).ifPresent(h -> h.onExit().orTimeout(10, TimeUnit.SECONDS).join());
    }
  }

  @Test
  void runGivesStdinToTheCommandAndBringsBackOutputErrorAndExit() {
    Remote.Result r =
        remote.run(
            List.of("sh", "-c", "tr a-z A-Z; echo oops >&2; exit 3"),
            "hello\n",
            Duration.ofSeconds(10));
    assertThat(r.exit()).isEqualTo(3);
    assertThat(r.ok()).isFalse();
    assertThat(r.out()).isEqualTo("HELLO\n");
    assertThat(r.err()).isEqualTo("oops\n");
  }

  @Test
  void aCommandThatOutlivesItsTimeoutIsEndedWith124() {
    Remote.Result r = remote.run(List.of("sleep", "30"), null, Duration.ofMillis(300));
    assertThat(r.exit()).isEqualTo(124);
    assertThat(r.err()).contains("timed out");
  }

  @Test
  void startDetachesInItsFolderWithTheEnvironmentAndAppendsToTheConsole(@TempDir Path dir)
      throws Exception {
    Path work = dir.resolve("work");
    Path console = dir.resolve("logs/console.log");
    Files.createDirectories(console.getParent());
    Files.writeString(console, "before\n");
    pid =
        remote.start(
            // short sleeps in a loop: killing sh by its pid leaves no sleep behind for long
            List.of("sh", "-c", "pwd; echo \"$SECRET\"; while :; do sleep 0.1; done"),
            work.toString(),
            console.toString(),
            Map.of("SECRET", "s3"));
    ProcessHandle h = ProcessHandle.of(pid).orElseThrow();
    assertThat(h.isAlive()).isTrue();
    // its own session: not in this JVM's process group, so Ctrl-C here does not reach it
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    assertThat(fields[3]).isEqualTo(Long.toString(pid)); // session id: its own pid
    Await.until(
        "the secret echoed to the console",
        Duration.ofSeconds(10),
        () -> Files.readString(console).contains("s3"));
    assertThat(Files.readString(console)).isEqualTo("before\n" + work.toRealPath() + "\ns3\n");
    assertThat(Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")))
        .doesNotContain("s3");
  }

  @Test
  void uploadAndDownloadCopyTreesAndNothingOntoItself(@TempDir Path dir) throws Exception {
    Path from = dir.resolve("from");
    Files.createDirectories(from.resolve("a/b"));
    Files.writeString(from.resolve("top.txt"), "12345");
    Files.writeString(from.resolve("a/b/deep.txt"), "678");
    Files.createDirectories(from.resolve("empty"));
    Path there = dir.resolve("there");
    assertThat(remote.upload(from, there.toString())).isEqualTo(8);
    assertThat(Files.readString(there.resolve("a/b/deep.txt"))).isEqualTo("678");
    assertThat(there.resolve("empty")).isDirectory();
    Path back = dir.resolve("back");
    remote.download(there.toString(), back);
    assertThat(Files.readString(back.resolve("top.txt"))).isEqualTo("12345");
    assertThat(remote.upload(from, from.toString())).isZero();
    assertThat(Files.readString(from.resolve("top.txt"))).isEqualTo("12345");
    remote.download(dir.resolve("missing").toString(), dir.resolve("none"));
    assertThat(dir.resolve("none")).doesNotExist();
  }

  @Test
  void theCommandToRunHereIsTheCommandItself() {
    assertThat(remote.command(List.of("java", "-version"))).containsExactly("java", "-version");
  }
}
