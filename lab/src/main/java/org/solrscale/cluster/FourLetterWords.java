package org.solrscale.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Sends one ZooKeeper four-letter word (ruok, srvr, mntr, ...) and returns the reply. */
public final class FourLetterWords {
  private FourLetterWords() {}

  public static Optional<String> ask(String host, int port, String word, int timeoutMillis) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), timeoutMillis);
      s.setSoTimeout(timeoutMillis);
      OutputStream out = s.getOutputStream();
      out.write(word.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      return Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * A reply of key-value lines as a map: {@code conf} writes {@code key=value}, {@code mntr} {@code
   * key<TAB>value}; a line without the separator (a sentence, such as "not currently serving") is
   * left out.
   */
  public static Map<String, String> pairs(String reply, String separator) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String line : reply.split("\n")) {
      int i = line.indexOf(separator);
      if (i > 0) {
        out.put(line.substring(0, i).strip(), line.substring(i + separator.length()).strip());
      }
    }
    return out;
  }

  /** The server's mode from srvr: leader, follower, standalone; empty when it is not serving. */
  public static Optional<String> mode(String host, int port) {
    return ask(host, port, "srvr", 2000)
        .flatMap(
            reply ->
                reply
                    .lines()
                    .filter(l -> l.startsWith("Mode: "))
                    .map(l -> l.substring(6).trim())
                    .findFirst());
  }
}
