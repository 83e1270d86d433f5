package org.solrscale.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
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
