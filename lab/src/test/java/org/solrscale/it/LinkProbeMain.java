package org.solrscale.it;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The tests' own probe of a link, written apart from solrscale's: run in a host's namespace with
 * {@code ip netns exec}. {@code echo ADDR SECONDS} echoes UDP datagrams on ADDR and prints its
 * port; {@code probe ADDR TCP_PORT UDP_PORT N [CONNECTS]} makes CONNECTS (default N) TCP connects
 * to a listening port (one round trip each, answered by the kernel; after 10 uncounted, which warm
 * this JVM up) and sends N UDP datagrams 5 ms apart, then prints one line per connect time
 * ("connect MS") and per datagram ("udp MS" or "udp lost").
 */
public final class LinkProbeMain {
  private LinkProbeMain() {}

  public static void main(String[] a) throws Exception {
    if (a[0].equals("sink")) { // ADDR: counts the bytes of one connection, prints bytes and seconds
      try (java.net.ServerSocket ss = new java.net.ServerSocket()) {
        ss.bind(new InetSocketAddress(a[1], 0));
        System.out.println("port " + ss.getLocalPort());
        System.out.flush();
        try (Socket s = ss.accept()) {
          byte[] b = new byte[1 << 16];
          long bytes = 0;
          long first = 0;
          long last = 0;
          for (int n; (n = s.getInputStream().read(b)) > 0; ) {
            last = System.nanoTime();
            if (bytes == 0) {
              first = last;
            }
            bytes += n;
          }
          System.out.println("bulk " + bytes + " " + (last - first) / 1e9);
        }
      }
      return;
    }
    if (a[0].equals("bulk")) { // ADDR PORT SECONDS: sends as fast as it can for SECONDS
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(a[1], Integer.parseInt(a[2])), 5000);
        byte[] b = new byte[1 << 14];
        long end = System.nanoTime() + (long) (Double.parseDouble(a[3]) * 1e9);
        while (System.nanoTime() < end) {
          s.getOutputStream().write(b);
        }
      }
      return;
    }
    if (a[0].equals("echo")) {
      try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(a[1], 0))) {
        System.out.println("port " + s.getLocalPort());
        System.out.flush();
        long end = System.nanoTime() + Long.parseLong(a[2]) * 1_000_000_000L;
        s.setSoTimeout(500);
        byte[] b = new byte[64];
        DatagramPacket p = new DatagramPacket(b, b.length);
        while (System.nanoTime() < end) {
          try {
            p.setLength(b.length);
            s.receive(p);
            s.send(p);
          } catch (SocketTimeoutException e) {
            // until the end
          }
        }
      }
      return;
    }
    String host = a[1];
    int tcp = Integer.parseInt(a[2]);
    int udp = Integer.parseInt(a[3]);
    int n = Integer.parseInt(a[4]);
    int connects = a.length > 5 ? Integer.parseInt(a[5]) : n;
    List<String> out = new ArrayList<>();
    for (int i = 0; i < 10 && tcp > 0; i++) { // this JVM's own warm-up, not counted
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(host, tcp), 5000);
      }
    }
    for (int i = 0; i < connects && tcp > 0; i++) { // TCP_PORT 0: datagrams only
      long t = System.nanoTime();
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(host, tcp), 5000);
        out.add("connect " + (System.nanoTime() - t) / 1e6);
      }
    }
    long[] sent = new long[n];
    double[] rtt = new double[n];
    try (DatagramSocket s = new DatagramSocket()) {
      s.connect(new InetSocketAddress(host, udp));
      Thread r =
          new Thread(
              () -> {
                byte[] b = new byte[8];
                DatagramPacket p = new DatagramPacket(b, 8);
                try {
                  s.setSoTimeout(3000);
                  while (true) {
                    s.receive(p);
                    int seq = (int) ByteBuffer.wrap(b).getLong();
                    synchronized (rtt) {
                      rtt[seq] = (System.nanoTime() - sent[seq]) / 1e6;
                    }
                  }
                } catch (Exception e) {
                  // 3 s without an answer: the rest are lost
                }
              });
      r.start();
      for (int i = 0; i < n; i++) {
        byte[] b = ByteBuffer.allocate(8).putLong(i).array();
        synchronized (rtt) {
          sent[i] = System.nanoTime();
        }
        try {
          s.send(new DatagramPacket(b, 8));
        } catch (java.net.PortUnreachableException e) {
          // an ICMP answer to an earlier datagram; this one is counted as lost
        }
        Thread.sleep(5); // the probe's pace (200 datagrams a second), not a wait
      }
      r.join();
    }
    synchronized (rtt) {
      for (double x : rtt) {
        out.add(x > 0 ? "udp " + x : "udp lost");
      }
    }
    out.forEach(System.out::println);
  }
}
