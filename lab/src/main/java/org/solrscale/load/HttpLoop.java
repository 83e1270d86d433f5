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

/**
 * A small HTTP/1.1 client made for load: one event-loop thread drives every connection (keep-alive,
 * one request at a time per connection, no pipelining), so a request costs no thread switch and no
 * allocation beyond its bytes. Requests beyond the connections wait in a queue per server, and
 * their latency keeps counting, as it must for an open loop. Completions run on the loop thread.
 */
final class HttpLoop implements AutoCloseable {
  /** One request to send and what to call when it ends. */
  record Exchange(
      InetSocketAddress server, byte[] request, long deadlineNanos, Listener listener) {}

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

    Connection(SocketChannel channel, Pool pool) {
      this.channel = channel;
      this.pool = pool;
    }
  }

  HttpLoop(int maxConnectionsPerServer, Clock clock) throws IOException {
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
      c.key = ch.register(selector, connected ? 0 : SelectionKey.OP_CONNECT, c);
      if (connected) {
        send(c, e);
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
      c.channel.write(c.out);
      c.key.interestOps(c.out.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
    } catch (IOException ex) {
      drop(c, "connection", "write: " + ex.getMessage());
    }
  }

  private void ready(Connection c, SelectionKey k, ByteBuffer in) {
    if (!k.isValid()) {
      return;
    }
    try {
      if (k.isConnectable()) {
        c.channel.finishConnect();
        send(c, c.current);
        return;
      }
      if (k.isWritable()) {
        write(c);
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
