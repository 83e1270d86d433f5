package org.solrscale.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The host agent (host-agent.sh): one POSIX shell script that does every host operation the same
 * way on this machine and on a host over SSH, sent as standard input to {@code sh -s}.
 */
final class HostAgent {
  /** The script's text. */
  static final String SCRIPT = load();

  private HostAgent() {}

  /** The command that runs the script, given as its standard input, with {@code op}. */
  static List<String> command(String op, String... args) {
    List<String> command = new ArrayList<>(List.of("sh", "-s", "--", op));
    command.addAll(List.of(args));
    return command;
  }

  private static String load() {
    try (InputStream in = HostAgent.class.getResourceAsStream("host-agent.sh")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
