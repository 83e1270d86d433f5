package org.solrscale.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * Echoes TCP bytes and UDP datagrams back to whoever sent them, on one address: the far end of
 * {@link RttProbe}. It runs beside a delayer on a slowed host so that a probe from across the
 * boundary crosses it; it measures nothing itself.
 */
public final class EchoServer {
  private final ServerSocket tcp;
  private final DatagramSocket udp;

  public EchoServer(String address) throws IOException {
    InetAddress a = InetAddress.getByName(address);
    tcp = new ServerSocket();
    tcp.bind(new InetSocketAddress(a, 0));
    udp = new DatagramSocket(new InetSocketAddress(a, 0));
    daemon(this::acceptLoop, "echo-tcp");
    daemon(this::udpLoop, "echo-udp");
  }

  public int tcpPort() {
    return tcp.getLocalPort();
  }

  public int udpPort() {
    return udp.getLocalPort();
  }

  private static void daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    t.start();
  }

  private void acceptLoop() {
    while (!tcp.isClosed()) {
      try {
        Socket s = tcp.accept();
        s.setTcpNoDelay(true);
        daemon(() -> echo(s), "echo-conn");
      } catch (IOException e) {
        return;
      }
    }
  }

  private static void echo(Socket s) {
    try (s;
        InputStream in = s.getInputStream();
        OutputStream out = s.getOutputStream()) {
      byte[] buf = new byte[4096];
      for (int n; (n = in.read(buf)) > 0; ) {
        out.write(buf, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // the prober went away
    }
  }

  private void udpLoop() {
    byte[] buf = new byte[1500];
    DatagramPacket p = new DatagramPacket(buf, buf.length);
    while (!udp.isClosed()) {
      try {
        p.setLength(buf.length);
        udp.receive(p);
        udp.send(p);
      } catch (IOException e) {
        return;
      }
    }
  }
}
