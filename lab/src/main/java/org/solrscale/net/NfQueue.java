package org.solrscale.net;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.io.Closeable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One netfilter queue (iptables' NFQUEUE target) read over a raw netlink socket, through libc by
 * JNA: Java 17 has no netlink sockets. Packets arrive as their id only (copy mode META, no
 * payload); each is let go or dropped by a verdict, one id or every id up to one at a time. The
 * queue fails open: packets the queue or the socket cannot hold pass at once rather than drop.
 *
 * <p>The messages are the kernel's {@code nfnetlink_queue} protocol (linux/netfilter/
 * nfnetlink_queue.h): a netlink header, the netfilter header whose resource id is the queue number,
 * then attributes.
 */
public final class NfQueue implements Closeable {
  static {
    Native.register(NfQueue.class, NativeLibrary.getInstance("c"));
  }

  private static native int socket(int domain, int type, int protocol);

  private static native int bind(int fd, Pointer addr, int len);

  private static native long send(int fd, Pointer buf, long len, int flags);

  private static native long recv(int fd, Pointer buf, long len, int flags);

  private static native int setsockopt(int fd, int level, int name, Pointer val, int len);

  private static native int close(int fd);

  private static native int sched_setscheduler(int pid, int policy, Pointer param);

  private static final int SCHED_FIFO = 1;

  /**
   * Gives the calling thread a real-time priority ({@code SCHED_FIFO}, low), as the kernel's own
   * packet scheduling would have: a delayer that waits behind busy Solr or JIT threads lets its
   * packets go late. Returns null when it took, else why not (then the thread keeps its priority).
   * The kernel's real-time throttling still leaves 5 % of each second to everything else.
   */
  public static String raiseThisThread(int priority) {
    ByteBuffer p = ByteBuffer.allocateDirect(4).order(ByteOrder.nativeOrder());
    p.putInt(0, priority);
    // pid 0: the calling thread (Linux)
    return sched_setscheduler(0, SCHED_FIFO, Native.getDirectBufferPointer(p)) == 0
        ? null
        : errno();
  }

  private static final int AF_NETLINK = 16;
  private static final int SOCK_RAW = 3;
  private static final int NETLINK_NETFILTER = 12;
  private static final int SOL_SOCKET = 1;
  private static final int SO_RCVBUFFORCE = 33;
  private static final int SO_RCVTIMEO = 20;
  private static final int SOL_NETLINK = 270;
  private static final int NETLINK_NO_ENOBUFS = 5;

  private static final int NLMSG_ERROR = 2;
  private static final int NLM_F_REQUEST = 1;
  private static final int NLM_F_ACK = 4;
  private static final int SUBSYS_QUEUE = 3 << 8;
  private static final int MSG_PACKET = SUBSYS_QUEUE;
  private static final int MSG_VERDICT = SUBSYS_QUEUE | 1;
  private static final int MSG_CONFIG = SUBSYS_QUEUE | 2;
  private static final int MSG_VERDICT_BATCH = SUBSYS_QUEUE | 3;
  private static final int CFG_CMD = 1;
  private static final int CFG_PARAMS = 2;
  private static final int CFG_QUEUE_MAXLEN = 3;
  private static final int CFG_MASK = 4;
  private static final int CFG_FLAGS = 5;
  private static final int CFG_F_FAIL_OPEN = 1;
  private static final int CMD_BIND = 1;
  private static final int COPY_PACKET = 2;

  /** What of each packet is copied: its IP header, enough for its length. */
  private static final int HEADER_BYTES = 20;

  private static final int ATTR_PAYLOAD = 10;
  private static final int ATTR_PACKET_HDR = 1;
  private static final int ATTR_VERDICT_HDR = 2;

  /** The verdicts. */
  public static final int DROP = 0;

  public static final int ACCEPT = 1;

  private final int fd;
  private final int queue;
  private final ByteBuffer in = ByteBuffer.allocateDirect(1 << 16).order(ByteOrder.nativeOrder());
  private final ByteBuffer out = ByteBuffer.allocateDirect(256).order(ByteOrder.nativeOrder());
  // JNA would pass a buffer at its position; these are the buffers' starts
  private final Pointer inAt = Native.getDirectBufferPointer(in);
  private final Pointer outAt = Native.getDirectBufferPointer(out);
  private int seq;
  private volatile boolean closed;

  private NfQueue(int fd, int queue) {
    this.fd = fd;
    this.queue = queue;
  }

  /**
   * Binds queue {@code queue} of this network namespace (root only); at most {@code maxLen} packets
   * wait in it at a time, more pass at once.
   */
  public static NfQueue open(int queue, int maxLen) {
    int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER);
    if (fd < 0) {
      throw new IllegalStateException("cannot open a netfilter netlink socket: " + errno());
    }
    NfQueue q = new NfQueue(fd, queue);
    try {
      ByteBuffer addr = ByteBuffer.allocateDirect(12).order(ByteOrder.nativeOrder());
      addr.putShort(0, (short) AF_NETLINK); // pid 0: the kernel picks, groups 0
      if (bind(fd, Native.getDirectBufferPointer(addr), 12) < 0) {
        throw new IllegalStateException("cannot bind a netlink socket: " + errno());
      }
      ByteBuffer v = ByteBuffer.allocateDirect(4).order(ByteOrder.nativeOrder());
      v.putInt(0, 16 << 20);
      setsockopt(
          fd,
          SOL_SOCKET,
          SO_RCVBUFFORCE,
          Native.getDirectBufferPointer(v),
          4); // best effort: 16 MB of queued ids
      v.putInt(0, 1);
      setsockopt(fd, SOL_NETLINK, NETLINK_NO_ENOBUFS, Native.getDirectBufferPointer(v), 4);
      // reads wake every 200 ms, so that the reading thread sees an interrupt (Ctrl-C, SIGTERM)
      ByteBuffer tv = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
      tv.putLong(0, 0).putLong(8, 200_000);
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, Native.getDirectBufferPointer(tv), 16);
      q.config(CFG_CMD, 4, b -> b.put((byte) CMD_BIND).put((byte) 0).putShort((short) 0));
      q.config(
          CFG_PARAMS,
          5,
          b ->
              b.order(ByteOrder.BIG_ENDIAN)
                  .putInt(HEADER_BYTES)
                  .order(ByteOrder.nativeOrder())
                  .put((byte) COPY_PACKET));
      q.config(
          CFG_QUEUE_MAXLEN,
          4,
          b -> b.order(ByteOrder.BIG_ENDIAN).putInt(maxLen).order(ByteOrder.nativeOrder()));
      q.configFlags();
      return q;
    } catch (RuntimeException e) {
      close(fd);
      throw e;
    }
  }

  private interface Body {
    void put(ByteBuffer b);
  }

  private void config(int attr, int len, Body body) {
    begin(MSG_CONFIG, NLM_F_REQUEST | NLM_F_ACK);
    attribute(attr, len, body);
    sendAndAck();
  }

  private void configFlags() {
    begin(MSG_CONFIG, NLM_F_REQUEST | NLM_F_ACK);
    attribute(CFG_FLAGS, 4, x -> x.order(ByteOrder.BIG_ENDIAN).putInt(CFG_F_FAIL_OPEN));
    attribute(CFG_MASK, 4, x -> x.order(ByteOrder.BIG_ENDIAN).putInt(CFG_F_FAIL_OPEN));
    sendAndAck();
  }

  private void begin(int type, int flags) {
    out.clear();
    out.putInt(0).putShort((short) type).putShort((short) flags).putInt(++seq).putInt(0);
    // the netfilter header: family AF_UNSPEC, version 0, the queue number (big-endian)
    out.put((byte) 0).put((byte) 0);
    out.order(ByteOrder.BIG_ENDIAN).putShort((short) queue).order(ByteOrder.nativeOrder());
  }

  private void attribute(int type, int len, Body body) {
    int start = out.position();
    out.putShort((short) (4 + len)).putShort((short) type);
    body.put(out);
    out.order(ByteOrder.nativeOrder());
    while ((out.position() - start) % 4 != 0) {
      out.put((byte) 0);
    }
  }

  private void flush() {
    int len = out.position();
    out.putInt(0, len);
    long sent = send(fd, outAt, len, 0);
    if (sent != len) {
      throw new IllegalStateException("cannot send to the netfilter queue: " + errno());
    }
  }

  private synchronized void sendAndAck() {
    flush();
    int want = seq;
    // the kernel's answer: an error message whose error is 0 (an acknowledgement) or -errno
    while (true) {
      in.clear();
      long n = recv(fd, inAt, in.capacity(), 0);
      if (n < 0) {
        throw new IllegalStateException("no answer from the netfilter queue: " + errno());
      }
      for (int at = 0; at + 16 <= n; ) {
        int len = in.getInt(at);
        int type = in.getShort(at + 4) & 0xffff;
        int s = in.getInt(at + 8);
        if (type == NLMSG_ERROR && s == want) {
          int err = in.getInt(at + 16);
          if (err != 0) {
            throw new IllegalStateException(
                "the kernel refused to set up netfilter queue "
                    + queue
                    + " (errno "
                    + -err
                    + (err == -1 ? ": not root, or another program has the queue" : "")
                    + ")");
          }
          return;
        }
        at += Math.max(16, (len + 3) & ~3);
      }
    }
  }

  /**
   * What a queued packet is to the reader: its id, its length in bytes (0: not known), and whether
   * this host sends it (the OUTPUT hook) rather than receives it.
   */
  public interface Sink {
    void packet(long id, int bytes, boolean outgoing);
  }

  private static final int HOOK_LOCAL_OUT = 3;

  /**
   * Waits for queued packets and passes each to {@code sink} (in the order the kernel queued them);
   * returns false once the queue is closed.
   */
  public boolean receive(Sink sink) {
    in.clear();
    long n = recv(fd, inAt, in.capacity(), 0);
    if (n < 0) {
      if (closed) {
        return false;
      }
      int e = Native.getLastError();
      if (e == 4 || e == 11 || e == 105) { // EINTR, EAGAIN (the read timed out), ENOBUFS: go on
        return true;
      }
      throw new IllegalStateException("cannot read the netfilter queue: errno " + e);
    }
    for (int at = 0; at + 16 <= n; ) {
      int len = in.getInt(at);
      int type = in.getShort(at + 4) & 0xffff;
      if (len < 16) {
        break;
      }
      if (type == MSG_PACKET) {
        long id = -1;
        int bytes = 0;
        boolean outgoing = false;
        for (int a = at + 20; a + 4 <= at + len; ) {
          int alen = in.getShort(a) & 0xffff;
          int atype = in.getShort(a + 2) & 0x3fff;
          if (alen < 4) {
            break;
          }
          if (atype == ATTR_PACKET_HDR) {
            id = Integer.toUnsignedLong(in.order(ByteOrder.BIG_ENDIAN).getInt(a + 4));
            in.order(ByteOrder.nativeOrder());
            outgoing = (in.get(a + 4 + 6) & 0xff) == HOOK_LOCAL_OUT; // id, hw protocol, hook
          } else if (atype == ATTR_PAYLOAD && alen >= 4 + 8) {
            bytes = ipLength(a + 4);
          }
          a += (alen + 3) & ~3;
        }
        if (id >= 0) {
          sink.packet(id, bytes, outgoing);
        }
      }
      at += (len + 3) & ~3;
    }
    return true;
  }

  /** The length of the IP packet whose header starts at {@code at}: IPv4's total, IPv6's + 40. */
  private int ipLength(int at) {
    int version = (in.get(at) & 0xff) >> 4;
    in.order(ByteOrder.BIG_ENDIAN);
    try {
      return version == 4
          ? in.getShort(at + 2) & 0xffff
          : version == 6 ? 40 + (in.getShort(at + 4) & 0xffff) : 0;
    } finally {
      in.order(ByteOrder.nativeOrder());
    }
  }

  /** Lets packet {@code id} go ({@link #ACCEPT}) or drops it ({@link #DROP}). */
  public synchronized void verdict(long id, int verdict) {
    send(MSG_VERDICT, id, verdict);
  }

  /** Lets every packet still queued whose id is at most {@code id} go. */
  public synchronized void acceptUpTo(long id) {
    send(MSG_VERDICT_BATCH, id, ACCEPT);
  }

  private void send(int type, long id, int verdict) {
    if (closed) {
      return;
    }
    begin(type, NLM_F_REQUEST);
    attribute(
        ATTR_VERDICT_HDR, 8, b -> b.order(ByteOrder.BIG_ENDIAN).putInt(verdict).putInt((int) id));
    flush();
  }

  @Override
  public void close() {
    closed = true;
    close(fd);
  }

  private static String errno() {
    return "errno " + Native.getLastError();
  }
}
