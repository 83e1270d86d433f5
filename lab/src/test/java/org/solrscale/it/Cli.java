package org.solrscale.it;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.solrscale.cli.Main;

/** Runs the solrscale CLI in this JVM and captures what it prints (tests run one at a time). */
final class Cli {
  record Result(int exitCode, String out, String err) {}

  private Cli() {}

  static synchronized Result run(String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    long t0 = System.nanoTime();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      int code = Main.run(args);
      return new Result(
          code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
      oldOut.print(out.toString(StandardCharsets.UTF_8));
      oldErr.print(err.toString(StandardCharsets.UTF_8));
      // where an IT's time goes, command by command, in its -output.txt
      oldErr.printf(
          Locale.ROOT,
          "[it] %.1f s: solrscale %s%n",
          (System.nanoTime() - t0) / 1e9,
          String.join(" ", args));
    }
  }
}
