package org.solrscale.testing;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * What a test needs from the machine (root, sshd, rsync, Chromium): where it is missing the test is
 * skipped, but under {@code CI=true} it fails with the reason, so a CI that lacks a part is not
 * green.
 */
public final class Needs {
  private Needs() {}

  /** Whether this is a CI run, where a missing part is a failure rather than a skip. */
  public static boolean ci() {
    return "true".equalsIgnoreCase(System.getenv("CI"));
  }

  /**
   * Skips the test (fails it under CI=true) unless {@code present}; {@code reason} says what is
   * missing.
   */
  public static void that(boolean present, String reason) {
    if (present) {
      return;
    }
    if (ci()) {
      fail("CI=true, so this test may not skip: " + reason);
    }
    Assumptions.abort(reason);
  }

  /** Lab networks make namespaces, bridges and cgroups. */
  public static void root() {
    that("root".equals(System.getProperty("user.name")), "lab networks need root");
  }

  /** Lab hosts run their own sshd and are reached with the ssh client. */
  public static void sshd() {
    that(Files.isExecutable(Path.of("/usr/sbin/sshd")), "needs openssh-server (/usr/sbin/sshd)");
    sshClient();
  }

  public static void sshClient() {
    that(onPath("ssh").isPresent(), "needs the ssh client (openssh-client)");
  }

  /** Hosts get files with rsync. */
  public static void rsync() {
    that(onPath("rsync").isPresent(), "needs rsync");
  }

  /** root, sshd and rsync: what a cluster on lab hosts needs. */
  public static void labHosts() {
    root();
    sshd();
    rsync();
  }

  /** Slow links: iptables' NFQUEUE target (the iptables package). */
  public static void iptables() {
    that(
        onPath("iptables").isPresent(),
        "slow links need iptables; install it with: apt-get install iptables");
  }

  /** The headless browser a report is checked in; its path. */
  public static String chromium() {
    Optional<Path> p = onPath("chromium").or(() -> onPath("chromium-browser"));
    that(
        p.isPresent(),
        "chromium is not installed, so the report is not checked in a browser;"
            + " install it with: apt-get install chromium chromium-driver");
    return p.get().toString();
  }

  /** ChromeDriver, to drive a live page in headless Chromium; its path. */
  public static String chromedriver() {
    chromium();
    Optional<Path> p = onPath("chromedriver");
    that(
        p.isPresent(),
        "chromedriver is not installed; install it with: apt-get install chromium-driver");
    return p.get().toString();
  }

  /** A Prometheus server to scrape the live view; its path. */
  public static String prometheus() {
    Optional<Path> p = onPath("prometheus");
    that(p.isPresent(), "prometheus is not installed; install it with: apt-get install prometheus");
    return p.get().toString();
  }

  /** The first executable called {@code name} on the PATH (or in /usr/sbin, /sbin). */
  public static Optional<Path> onPath(String name) {
    String path = System.getenv().getOrDefault("PATH", "") + File.pathSeparator + "/usr/sbin:/sbin";
    for (String dir : path.split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
        return Optional.of(Path.of(dir, name));
      }
    }
    return Optional.empty();
  }
}
