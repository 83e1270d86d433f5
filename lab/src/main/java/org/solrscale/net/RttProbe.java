package org.solrscale.net;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import org.solrscale.results.LinkProbe;

/**
 * Measures a link from this side to an {@link EchoServer} on the other (or, with no UDP port, by
 * TCP connects alone to any listening port), with this process's clock only, for {@code seconds}:
 * TCP connects (one round trip each, answered by the kernel), an open-loop TCP echo (a stamped
 * message every 10 ms whatever came back, so a long round trip does not thin the samples) and UDP
 * datagrams every 2 ms, each echoed or lost. Bounded in count and time: at most {@code seconds} of
 * sending, then at most 3 s for the last answers.
 */
public final class RttProbe {
  private static final long ECHO_EVERY_NANOS = 10_000_000L;
  private static final long DATAGRAM_EVERY_NANOS = 2_000_000L;
  private static final int CONNECTS = 20;

  private RttProbe() {}

  public static LinkProbe measure(
      String from, String host, int tcpPort, int udpPort, double seconds)
      throws IOException, InterruptedException {
    long end = System.nanoTime() + Math.round(seconds * 1e9);
    if (udpPort == 0) { // connects alone: to any listening port, no echo needed
      double[] con = connectsOnly(host, tcpPort, end, seconds);
      return new LinkProbe(
          from,
          host,
          seconds,
          con.length,
          pct(con, 50),
          0,
          null,
          null,
          null,
          null,
          null,
          0,
          0,
          null,
          null,
          null,
          null);
    }
    List<Double> connects = new ArrayList<>();
    Thread c =
        thread(
            () -> {
              for (int i = 0; i < CONNECTS && System.nanoTime() < end; i++) {
                long t = System.nanoTime();
                try (Socket s = new Socket()) {
                  s.connect(new InetSocketAddress(host, tcpPort), 3000);
                  synchronized (connects) {
                    connects.add((System.nanoTime() - t) / 1e6);
                  }
                } catch (IOException e) {
                  // a lost SYN: the datagrams count losses
                }
                sleepUntil(t + Math.round(seconds * 1e9 / CONNECTS));
              }
            });
    double[] tcp = new double[(int) Math.ceil(seconds * 1e9 / ECHO_EVERY_NANOS) + 1];
    int[] tcpN = {0};
    Thread e =
        thread(
            () -> {
              try (Socket s = new Socket()) {
                s.setTcpNoDelay(true);
                s.connect(new InetSocketAddress(host, tcpPort), 5000);
                s.setSoTimeout(3000);
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                DataInputStream in = new DataInputStream(s.getInputStream());
                int[] sent = {0};
                boolean[] done = {false};
                Thread w =
                    thread(
                        () -> {
                          try {
                            for (long t = System.nanoTime(); t < end; t += ECHO_EVERY_NANOS) {
                              sleepUntil(t);
                              out.writeLong(System.nanoTime());
                              out.flush();
                              synchronized (sent) {
                                sent[0]++;
                              }
                            }
                          } catch (IOException x) {
                            // counted by what came back
                          } finally {
                            synchronized (sent) {
                              done[0] = true;
                            }
                            try {
                              s.shutdownOutput(); // the echo ends, so a blocked read ends too
                            } catch (IOException x) {
                              // closed already
                            }
                          }
                        });
                // read as they come (a stamp read late would add the wait to its round trip)
                while (tcpN[0] < tcp.length) {
                  synchronized (sent) {
                    if (done[0] && tcpN[0] >= sent[0]) {
                      break;
                    }
                  }
                  long stamp = in.readLong();
                  tcp[tcpN[0]++] = (System.nanoTime() - stamp) / 1e6;
                }
                w.join();
              } catch (IOException | InterruptedException x) {
                // what came back is what was measured
              }
            });
    double[] udpRtt = new double[(int) Math.ceil(seconds * 1e9 / DATAGRAM_EVERY_NANOS) + 1];
    BitSet back = new BitSet();
    int sent = 0;
    try (DatagramSocket u = new DatagramSocket()) {
      u.connect(new InetSocketAddress(host, udpPort));
      Thread r =
          thread(
              () -> {
                byte[] buf = new byte[16];
                DatagramPacket p = new DatagramPacket(buf, 16);
                try {
                  u.setSoTimeout(200);
                  while (true) {
                    try {
                      u.receive(p);
                    } catch (SocketTimeoutException x) {
                      if (System.nanoTime() > end + 3_000_000_000L) {
                        return;
                      }
                      continue;
                    }
                    ByteBuffer b = ByteBuffer.wrap(buf);
                    int seq = (int) b.getLong();
                    long stamp = b.getLong();
                    synchronized (back) {
                      if (seq >= 0 && seq < udpRtt.length && !back.get(seq)) {
                        back.set(seq);
                        udpRtt[seq] = (System.nanoTime() - stamp) / 1e6;
                      }
                    }
                  }
                } catch (IOException x) {
                  // socket closed
                }
              });
      byte[] buf = new byte[16];
      for (long t = System.nanoTime(); t < end && sent < udpRtt.length; t += DATAGRAM_EVERY_NANOS) {
        sleepUntil(t);
        ByteBuffer.wrap(buf).putLong(sent).putLong(System.nanoTime());
        u.send(new DatagramPacket(buf, 16));
        sent++;
      }
      r.join();
    }
    c.join();
    e.join();
    double[] rtt = Arrays.copyOf(tcp, tcpN[0]);
    double[] con;
    synchronized (connects) {
      con = connects.stream().mapToDouble(Double::doubleValue).toArray();
    }
    double[] udp;
    synchronized (back) {
      udp = back.stream().mapToDouble(i -> udpRtt[i]).toArray();
    }
    return new LinkProbe(
        from,
        host,
        seconds,
        con.length,
        pct(con, 50),
        rtt.length,
        pct(rtt, 10),
        pct(rtt, 50),
        pct(rtt, 90),
        pct(rtt, 99),
        stdev(rtt),
        sent,
        udp.length,
        pct(udp, 50),
        pct(udp, 90),
        pct(udp, 99),
        stdev(udp));
  }

  private static double[] connectsOnly(String host, int port, long end, double seconds) {
    List<Double> out = new ArrayList<>();
    for (int i = 0; i < CONNECTS && System.nanoTime() < end; i++) {
      long t = System.nanoTime();
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(host, port), 3000);
        out.add((System.nanoTime() - t) / 1e6);
      } catch (IOException e) {
        // refused or lost: not a round trip
      }
      sleepUntil(t + Math.round(seconds * 1e9 / CONNECTS));
    }
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private interface Body {
    void run() throws IOException, InterruptedException;
  }

  private static Thread thread(Body b) {
    Thread t =
        new Thread(
            () -> {
              try {
                b.run();
              } catch (IOException | InterruptedException e) {
                // measured what it could
              }
            });
    t.setDaemon(true);
    t.start();
    return t;
  }

  private static void sleepUntil(long nanos) {
    long w;
    while ((w = nanos - System.nanoTime()) > 0) {
      java.util.concurrent.locks.LockSupport.parkNanos(w);
    }
  }

  static Double pct(double[] v, double p) {
    if (v.length == 0) {
      return null;
    }
    double[] s = v.clone();
    Arrays.sort(s);
    int i = (int) Math.ceil(p / 100 * s.length) - 1;
    return round(s[Math.max(0, Math.min(s.length - 1, i))]);
  }

  static Double stdev(double[] v) {
    if (v.length < 2) {
      return null;
    }
    double m = Arrays.stream(v).average().orElse(0);
    double ss = Arrays.stream(v).map(x -> (x - m) * (x - m)).sum();
    return round(Math.sqrt(ss / (v.length - 1)));
  }

  private static double round(double x) {
    return Math.round(x * 1000) / 1000.0;
  }
}
