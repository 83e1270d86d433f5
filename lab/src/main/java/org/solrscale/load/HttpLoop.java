package org.solrscale.load;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;

/**
 * A small HTTP/1.1 client made for load: one event-loop thread drives every connection (keep-alive,
 * one request at a time per connection, no pipelining), so a request costs no thread switch and no
 * allocation beyond its bytes. Requests beyond the connections wait in a queue per server, and
 * their latency keeps counting, as it must for an open loop. Completions run on the loop thread.
 */
final class HttpLoop implements AutoCloseable {
  /** One request to send and what to call when it ends. */
  record Exchange(
      InetSocketAddress server,
      boolean tls,
      byte[] request,
      long deadlineNanos,
      Listener listener) {}

  /** How an exchange ended: a parsed response, or a failure of a kind. */
  interface Listener {
    void response(ResponseParser r, long sentNanos, long doneNanos);

    void failure(String kind, String message, long bytes, long sentNanos, long doneNanos);
  }

  private final Selector selector;
  private final Thread thread;
  private final Clock clock;
  private final int maxConnections;
  private final ConcurrentLinkedQueue<Exchange> submitted = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean sleeping = new AtomicBoolean();
  private final Map<InetSocketAddress, Pool> pools = new HashMap<>();
  private final List<Connection> busy = new ArrayList<>();
  private final SSLContext tlsContext;

  /** Decrypted bytes on their way to a parser: the loop thread's own, reused. */
  private final ByteBuffer plain = ByteBuffer.allocate(64 * 1024);

  private volatile boolean open = true;

  /** The connections to one server. */
  private static final class Pool {
    final ArrayDeque<Connection> idle = new ArrayDeque<>();
    final ArrayDeque<Exchange> waiting = new ArrayDeque<>();
    int count;
  }

  /** One keep-alive connection and the exchange on it. */
  private final class Connection {
    final SocketChannel channel;
    final Pool pool;
    final ResponseParser parser = new ResponseParser();
    SelectionKey key;
    ByteBuffer out;
    Exchange current;

    /** When the current request started going on the wire. */
    long sentNanos;

    /** TLS: the engine, its records to send (read mode) and received (write mode); else null. */
    SSLEngine engine;

    ByteBuffer netOut;
    ByteBuffer netIn;
    boolean handshaken;

    Connection(SocketChannel channel, Pool pool) {
      this.channel = channel;
      this.pool = pool;
    }
  }

  HttpLoop(int maxConnectionsPerServer, Clock clock) throws IOException {
    this(maxConnectionsPerServer, clock, null);
  }

  /**
   * {@code tlsContext}: for exchanges over TLS (https), whose server certificates it must trust;
   * the server's name or address in the URL is checked against the certificate.
   */
  HttpLoop(int maxConnectionsPerServer, Clock clock, SSLContext tlsContext) throws IOException {
    this.tlsContext = tlsContext;
    this.selector = Selector.open();
    this.clock = clock;
    this.maxConnections = maxConnectionsPerServer;
    this.thread = new Thread(this::loop, "solrscale-http");
    thread.setDaemon(true);
    thread.start();
  }

  /** Queues an exchange; from any thread, or from a completion on the loop thread itself. */
  void submit(Exchange e) {
    if (Thread.currentThread() == thread) {
      start(e);
      return;
    }
    submitted.add(e);
    if (sleeping.get()) {
      selector.wakeup();
    }
  }

  private void loop() {
    ByteBuffer in = ByteBuffer.allocateDirect(64 * 1024);
    while (open) {
      try {
        Exchange e;
        while ((e = submitted.poll()) != null) {
          start(e);
        }
        sleeping.set(true);
        if (submitted.isEmpty()) {
          selector.select(busy.isEmpty() ? 100 : 10);
        } else {
          selector.selectNow();
        }
        sleeping.set(false);
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
          SelectionKey k = keys.next();
          keys.remove();
          ready((Connection) k.attachment(), k, in);
        }
        expire();
      } catch (IOException | RuntimeException ex) {
        if (open) {
          failAll("other", "HTTP loop: " + ex);
        }
      }
    }
    failAll("other", "the client was closed");
  }

  private void start(Exchange e) {
    Pool pool = pools.computeIfAbsent(e.server(), s -> new Pool());
    Connection c = pool.idle.pollFirst();
    if (c != null) {
      send(c, e);
    } else if (pool.count < maxConnections) {
      connect(pool, e);
    } else {
      pool.waiting.addLast(e);
    }
  }

  private void connect(Pool pool, Exchange e) {
    SocketChannel ch = null;
    Connection c = null;
    try {
      ch = SocketChannel.open();
      ch.configureBlocking(false);
      ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
      boolean connected = ch.connect(e.server());
      c = new Connection(ch, pool);
      pool.count++;
      c.current = e;
      busy.add(c);
      if (e.tls()) {
        c.engine = engine(e.server());
        c.netOut = ByteBuffer.allocate(c.engine.getSession().getPacketBufferSize());
        c.netOut.flip(); // nothing to send yet
        c.netIn = ByteBuffer.allocate(c.engine.getSession().getPacketBufferSize());
      }
      c.key = ch.register(selector, connected ? 0 : SelectionKey.OP_CONNECT, c);
      if (connected) {
        connected(c);
      }
    } catch (IOException ex) {
      // undo what was done, so the exchange is failed once and the pool's count stays true
      if (c != null) {
        c.current = null;
        busy.remove(c);
        pool.count--;
      }
      if (ch != null) {
        try {
          ch.close();
        } catch (IOException ignored) {
          // closing a channel that never connected
        }
      }
      e.listener()
          .failure(
              "connection",
              "connect to " + e.server() + ": " + ex.getMessage(),
              0,
              0,
              clock.nanoTime());
    }
  }

  private SSLEngine engine(InetSocketAddress server) {
    if (tlsContext == null) {
      throw new IllegalStateException("an https exchange on a loop without TLS");
    }
    SSLEngine engine = tlsContext.createSSLEngine(server.getHostString(), server.getPort());
    engine.setUseClientMode(true);
    SSLParameters params = engine.getSSLParameters();
    params.setEndpointIdentificationAlgorithm("HTTPS"); // the certificate must name this server
    params.setApplicationProtocols(new String[] {"http/1.1"});
    engine.setSSLParameters(params);
    return engine;
  }

  /** The TCP connection is up: send, or first shake hands. */
  private void connected(Connection c) throws IOException {
    if (c.engine == null) {
      send(c, c.current);
      return;
    }
    c.engine.beginHandshake();
    handshake(c);
  }

  /**
   * Drives the TLS handshake as far as the bytes at hand allow; sends the request once it is done.
   * Delegated tasks (certificate checks, key agreement) run here, on the loop thread: they take
   * well under a millisecond, and connections are kept alive.
   */
  private void handshake(Connection c) throws IOException {
    while (true) {
      if (c.netOut.hasRemaining()) {
        c.channel.write(c.netOut);
        if (c.netOut.hasRemaining()) {
          c.key.interestOps(SelectionKey.OP_WRITE);
          return;
        }
      }
      switch (c.engine.getHandshakeStatus()) {
        case NEED_WRAP -> {
          c.netOut.clear();
          SSLEngineResult r = c.engine.wrap(ByteBuffer.allocate(0), c.netOut);
          c.netOut.flip();
          if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
            throw new SSLException("the server closed TLS during the handshake");
          }
        }
        case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
          c.netIn.flip();
          plain.clear();
          SSLEngineResult r = c.engine.unwrap(c.netIn, plain);
          c.netIn.compact();
          if (r.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
            c.key.interestOps(SelectionKey.OP_READ);
            return;
          }
          if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
            throw new SSLException("the server closed TLS during the handshake");
          }
        }
        case NEED_TASK -> {
          Runnable task;
          while ((task = c.engine.getDelegatedTask()) != null) {
            task.run();
          }
        }
        default -> {
          c.handshaken = true;
          if (c.current != null) {
            send(c, c.current);
          } else {
            c.key.interestOps(0);
          }
          return;
        }
      }
    }
  }

  private void send(Connection c, Exchange e) {
    c.current = e;
    if (!busy.contains(c)) {
      busy.add(c);
    }
    c.parser.reset(false);
    c.sentNanos = clock.nanoTime();
    c.out = ByteBuffer.wrap(e.request());
    write(c);
  }

  private void write(Connection c) {
    try {
      if (c.engine == null) {
        c.channel.write(c.out);
        c.key.interestOps(c.out.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        return;
      }
      while (true) {
        if (c.netOut.hasRemaining()) {
          c.channel.write(c.netOut);
          if (c.netOut.hasRemaining()) {
            c.key.interestOps(SelectionKey.OP_WRITE);
            return;
          }
        }
        if (!c.out.hasRemaining()) {
          c.key.interestOps(SelectionKey.OP_READ);
          return;
        }
        c.netOut.clear();
        SSLEngineResult r = c.engine.wrap(c.out, c.netOut);
        c.netOut.flip();
        if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
          drop(c, "connection", "write: TLS closed");
          return;
        }
      }
    } catch (IOException ex) {
      drop(c, "connection", "write: " + ex.getMessage());
    }
  }

  /** Reads TLS records and feeds what they decrypt to the parser. */
  private void readTls(Connection c) throws IOException {
    int n = c.channel.read(c.netIn);
    if (n < 0) {
      drop(c, "connection", "the server closed the connection");
      return;
    }
    if (!c.handshaken) {
      handshake(c);
      return;
    }
    c.netIn.flip();
    try {
      while (c.netIn.hasRemaining()) {
        plain.clear();
        SSLEngineResult r = c.engine.unwrap(c.netIn, plain);
        if (r.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
          break;
        }
        if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
          drop(c, "connection", "the server closed TLS");
          return;
        }
        plain.flip();
        if (plain.hasRemaining() && c.current != null && c.parser.feed(plain)) {
          finish(c);
          return;
        }
        if (r.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK) {
          Runnable task;
          while ((task = c.engine.getDelegatedTask()) != null) {
            task.run();
          }
        }
      }
    } finally {
      c.netIn.compact();
    }
  }

  private void ready(Connection c, SelectionKey k, ByteBuffer in) {
    if (!k.isValid()) {
      return;
    }
    try {
      if (k.isConnectable()) {
        c.channel.finishConnect();
        connected(c);
        return;
      }
      if (k.isWritable()) {
        if (c.engine != null && !c.handshaken) {
          handshake(c);
        } else {
          write(c);
        }
        return;
      }
      if (k.isReadable() && c.engine != null) {
        readTls(c);
        return;
      }
      if (k.isReadable()) {
        in.clear();
        int n = c.channel.read(in);
        if (n < 0) {
          drop(c, "connection", "the server closed the connection");
          return;
        }
        in.flip();
        if (c.current != null && c.parser.feed(in)) {
          finish(c);
        }
      }
    } catch (SSLHandshakeException ex) {
      drop(c, "tls", "TLS handshake: " + ex.getMessage());
    } catch (IOException ex) {
      drop(c, "connection", ex.getMessage());
    } catch (RuntimeException ex) {
      drop(c, "other", "bad response: " + ex.getMessage());
    }
  }

  private void finish(Connection c) {
    Exchange e = c.current;
    c.current = null;
    busy.remove(c);
    long done = clock.nanoTime();
    if (c.parser.close) {
      closeQuietly(c);
    } else {
      c.key.interestOps(0);
      c.pool.idle.addLast(c);
    }
    e.listener().response(c.parser, c.sentNanos, done);
    next(c.pool);
  }

  /** A waiting exchange takes a free or new connection. */
  private void next(Pool pool) {
    while (!pool.waiting.isEmpty()) {
      Connection idle = pool.idle.pollFirst();
      if (idle != null) {
        send(idle, pool.waiting.pollFirst());
      } else if (pool.count < maxConnections) {
        connect(pool, pool.waiting.pollFirst());
      } else {
        return;
      }
    }
  }

  private void drop(Connection c, String kind, String message) {
    Exchange e = c.current;
    c.current = null;
    busy.remove(c);
    closeQuietly(c);
    if (e != null) {
      e.listener().failure(kind, message, c.parser.bytes, c.sentNanos, clock.nanoTime());
    }
    next(c.pool);
  }

  private void closeQuietly(Connection c) {
    c.pool.count--;
    c.pool.idle.remove(c);
    try {
      if (c.key != null) {
        c.key.cancel();
      }
      c.channel.close();
    } catch (IOException ignored) {
      // closing a connection that failed
    }
  }

  /** Times out exchanges past their deadline, on the wire or still waiting for a connection. */
  private void expire() {
    long now = clock.nanoTime();
    for (Connection c : new ArrayList<>(busy)) {
      if (c.current != null && now > c.current.deadlineNanos()) {
        drop(c, "timeout", "no complete response within the timeout");
      }
    }
    for (Pool p : pools.values()) {
      while (!p.waiting.isEmpty() && now > p.waiting.peekFirst().deadlineNanos()) {
        p.waiting
            .pollFirst()
            .listener()
            .failure("timeout", "no connection free within the timeout", 0, 0, now);
      }
    }
  }

  private void failAll(String kind, String message) {
    for (Connection c : new ArrayList<>(busy)) {
      drop(c, kind, message);
    }
    Exchange e;
    while ((e = submitted.poll()) != null) {
      e.listener().failure(kind, message, 0, 0, clock.nanoTime());
    }
    for (Pool p : pools.values()) {
      while (!p.waiting.isEmpty()) {
        p.waiting.pollFirst().listener().failure(kind, message, 0, 0, clock.nanoTime());
      }
    }
  }

  @Override
  public void close() {
    open = false;
    selector.wakeup();
    try {
      thread.join(5000);
      for (Pool p : pools.values()) {
        for (Connection c : new ArrayList<>(p.idle)) {
          closeQuietly(c);
        }
      }
      selector.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException ignored) {
      // closing at the end of a run
    }
  }
}
