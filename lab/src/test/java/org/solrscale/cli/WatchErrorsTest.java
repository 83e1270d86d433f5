package org.solrscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `solrscale watch` and `--live` given what they cannot follow or serve: one line, exit code 2, no
 * stack trace, and (for a refused bench) no directory left behind.
 */
class WatchErrorsTest {
  @TempDir Path tmp;

  private record Result(int code, String err) {}

  private static Result run(String... argv) {
    PrintStream oldErr = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      return new Result(Main.run(argv), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setErr(oldErr);
    }
  }

  private static void oneLine(Result r, String... contains) {
    assertThat(r.code()).as(r.err()).isEqualTo(2);
    assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
    assertThat(r.err()).startsWith("solrscale: ").contains(contains).doesNotContain("\tat ");
  }

  @Test
  void aDirectoryThatIsNotARun() throws Exception {
    Path photos = Files.createDirectories(tmp.resolve("photos"));
    Files.writeString(photos.resolve("cat.jpg"), "meow");
    oneLine(run("watch", photos.toString()), "is not a run directory", "--out");
    oneLine(run("watch", photos.resolve("cat.jpg").toString()), "is a file, not a run directory");
  }

  @Test
  void aPortInUse() throws Exception {
    Path run = Files.createDirectories(tmp.resolve("run"));
    Files.writeString(run.resolve("progress.json"), "{}");
    try (ServerSocket taken = new ServerSocket(0)) {
      oneLine(
          run("watch", run.toString(), "--port", Integer.toString(taken.getLocalPort())),
          "cannot listen on 127.0.0.1:" + taken.getLocalPort(),
          "--port");
    }
    oneLine(run("watch", run.toString(), "--bind", "no-such-host.invalid"), "--bind");
  }

  @Test
  void liveWithoutADirectoryToFollow() {
    Path out = tmp.resolve("never");
    oneLine(
        run(
            "bench",
            "--url",
            "http://127.0.0.1:9/solr",
            "--collection",
            "c",
            "--queries",
            tmp.resolve("none.txt").toString(),
            "--rate",
            "10",
            "--live"),
        "--live follows the run directory: give --out DIR");
    assertThat(out).doesNotExist();
  }
}
