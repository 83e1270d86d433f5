package org.solrscale.load;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/**
 * Parses one HTTP/1.1 response as its bytes arrive, without copying the body: status, the headers
 * that matter (Content-Length, chunked, gzip, Connection: close), and the first {@link #KEEP} bytes
 * of the body (for numFound and error messages). Counts every byte of the response.
 */
final class ResponseParser {
  static final int KEEP = 16 * 1024;

  private enum State {
    STATUS,
    HEADERS,
    BODY,
    CHUNK_SIZE,
    CHUNK_DATA,
    CHUNK_END,
    TRAILERS,
    DONE
  }

  private State state = State.STATUS;
  private final StringBuilder line = new StringBuilder(128);
  private final ByteArrayOutputStream head = new ByteArrayOutputStream(256);
  int status;
  long bytes;
  boolean gzip;
  boolean close;
  private long contentLength = -1;
  private boolean chunked;
  private long remaining;

  /** Whether the request was a HEAD (no body follows). */
  private boolean noBody;

  void reset(boolean headRequest) {
    state = State.STATUS;
    line.setLength(0);
    head.reset();
    status = 0;
    bytes = 0;
    gzip = false;
    close = false;
    contentLength = -1;
    chunked = false;
    remaining = 0;
    noBody = headRequest;
  }

  boolean done() {
    return state == State.DONE;
  }

  /** The kept head of the body. */
  byte[] head() {
    return head.toByteArray();
  }

  /**
   * Consumes bytes from {@code in} until the response is complete (true) or the buffer is empty.
   * Throws IllegalStateException on a malformed response.
   */
  boolean feed(ByteBuffer in) {
    while (in.hasRemaining() && state != State.DONE) {
      switch (state) {
        case STATUS, HEADERS, CHUNK_SIZE, CHUNK_END, TRAILERS -> {
          if (readLine(in)) {
            onLine();
          }
        }
        case BODY, CHUNK_DATA -> body(in);
        default -> throw new IllegalStateException("unreachable");
      }
    }
    return state == State.DONE;
  }

  private boolean readLine(ByteBuffer in) {
    while (in.hasRemaining()) {
      byte b = in.get();
      bytes++;
      if (b == '\n') {
        int n = line.length();
        if (n > 0 && line.charAt(n - 1) == '\r') {
          line.setLength(n - 1);
        }
        return true;
      }
      if (line.length() > 16 * 1024) {
        throw new IllegalStateException("response line or header longer than 16 KB");
      }
      line.append((char) (b & 0xFF));
    }
    return false;
  }

  private void onLine() {
    String l = line.toString();
    line.setLength(0);
    switch (state) {
      case STATUS -> {
        if (!l.startsWith("HTTP/1.") || l.length() < 12) {
          throw new IllegalStateException("not an HTTP/1.x status line: " + abbreviate(l));
        }
        status = Integer.parseInt(l.substring(9, 12));
        state = State.HEADERS;
      }
      case HEADERS -> {
        if (l.isEmpty()) {
          startBody();
        } else {
          header(l);
        }
      }
      case CHUNK_SIZE -> {
        int semi = l.indexOf(';');
        long size = Long.parseLong((semi < 0 ? l : l.substring(0, semi)).strip(), 16);
        if (size == 0) {
          state = State.TRAILERS;
        } else {
          remaining = size;
          state = State.CHUNK_DATA;
        }
      }
      case CHUNK_END -> state = State.CHUNK_SIZE;
      case TRAILERS -> {
        if (l.isEmpty()) {
          state = State.DONE;
        }
      }
      default -> throw new IllegalStateException("unreachable");
    }
  }

  private void header(String l) {
    int colon = l.indexOf(':');
    if (colon <= 0) {
      throw new IllegalStateException("malformed header: " + abbreviate(l));
    }
    String name = l.substring(0, colon).strip();
    String value = l.substring(colon + 1).strip();
    if (name.equalsIgnoreCase("Content-Length")) {
      contentLength = Long.parseLong(value);
    } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
      chunked = value.toLowerCase().contains("chunked");
    } else if (name.equalsIgnoreCase("Content-Encoding")) {
      gzip = value.toLowerCase().contains("gzip");
    } else if (name.equalsIgnoreCase("Connection")) {
      close = value.equalsIgnoreCase("close");
    }
  }

  private void startBody() {
    if (noBody || status == 204 || status == 304 || status / 100 == 1) {
      state = State.DONE;
    } else if (chunked) {
      state = State.CHUNK_SIZE;
    } else if (contentLength >= 0) {
      remaining = contentLength;
      state = remaining == 0 ? State.DONE : State.BODY;
    } else {
      throw new IllegalStateException("response without Content-Length or chunked encoding");
    }
  }

  private void body(ByteBuffer in) {
    int n = (int) Math.min(remaining, in.remaining());
    int keep = Math.min(n, KEEP - head.size());
    if (keep > 0) {
      byte[] b = new byte[keep];
      in.get(b);
      head.write(b, 0, keep);
      in.position(in.position() + n - keep);
    } else {
      in.position(in.position() + n);
    }
    bytes += n;
    remaining -= n;
    if (remaining == 0) {
      state = state == State.BODY ? State.DONE : State.CHUNK_END;
    }
  }

  private static String abbreviate(String s) {
    return s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }
}
