package org.solrscale.distribute;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import org.solrscale.results.Route;

/**
 * What relays say to each other over one TCP connection. Downstream: HELLO (the files, the chunk
 * size and the receiver's part of the route), then CHUNK frames (file, offset, length, SHA-256,
 * bytes) and END. Upstream, on the same connection: HAVE (how much of each file the receiver
 * already has, verified), RESEND (a chunk failed its hash: go back to that offset) and DONE
 * (everything is here and verified).
 */
final class Wire {
  static final int MAGIC = 0x534c5344; // "SLSD"
  static final int VERSION = 1;
  static final byte CHUNK = 1;
  static final byte END = 2;
  static final byte RESEND = 3;
  static final byte DONE = 4;
  static final int HASH = 32;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_HELLO = 16 << 20;

  private Wire() {}

  /** The first thing a sender says: what is distributed and who the receiver forwards to. */
  record Hello(
      @JsonProperty("files") List<IndexFile> files,
      @JsonProperty("chunk") int chunk,
      @JsonProperty("route") Route route) {}

  static void writeHello(DataOutputStream out, Hello h) throws IOException {
    byte[] json = JSON.writeValueAsBytes(h);
    out.writeInt(MAGIC);
    out.writeInt(VERSION);
    out.writeInt(json.length);
    out.write(json);
    out.flush();
  }

  static Hello readHello(DataInputStream in) throws IOException {
    if (in.readInt() != MAGIC) {
      throw new IOException("not a solrscale distribution stream");
    }
    int version = in.readInt();
    if (version != VERSION) {
      throw new IOException("distribution protocol " + version + ", this relay speaks " + VERSION);
    }
    int len = in.readInt();
    if (len < 0 || len > MAX_HELLO) {
      throw new IOException("a hello of " + len + " bytes");
    }
    byte[] json = in.readNBytes(len);
    return JSON.readValue(json, Hello.class);
  }

  static void writeHave(DataOutputStream out, long[] have) throws IOException {
    out.writeInt(have.length);
    for (long h : have) {
      out.writeLong(h);
    }
    out.flush();
  }

  static long[] readHave(DataInputStream in, int files) throws IOException {
    int n = in.readInt();
    if (n != files) {
      throw new IOException("the receiver answered for " + n + " files, not " + files);
    }
    long[] have = new long[n];
    for (int i = 0; i < n; i++) {
      have[i] = in.readLong();
    }
    return have;
  }
}
