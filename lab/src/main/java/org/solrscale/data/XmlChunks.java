package org.solrscale.data;

import java.io.IOException;
import java.io.InputStream;

/**
 * The {@code <doc ...>...</doc>} ranges of a Solr XML stream. A {@code <doc} that starts before the
 * current one ended is either a nested child document or the next document after a missing
 * {@code </doc>}; only what follows tells them apart. So the scan counts depth: if the outer
 * document closes (within {@link #MAX_NESTED_SCAN} bytes, and before {@code </add>} or the end of
 * the input) the whole range is one document with {@link #children} nested ones; otherwise the
 * outer one is a range with an error and the scan resumes at the inner start, so one broken
 * document never swallows its neighbours.
 */
final class XmlChunks extends ChunkScanner {
  static final String NOT_CLOSED = "document is not closed before the next <doc> (missing </doc>)";
  static final String NOT_CLOSED_AT_END = "document is not closed before the end of the file";
  static final String DELETE = "<delete> is an update command, not a document: solrscale only adds "
      + "documents, so it was not applied (send it to Solr yourself)";
  /** How far past its first inner {@code <doc} a document may run and still count as its parent. */
  static final int MAX_NESTED_SCAN = 8 << 20;

  static final String TOO_FAR = "document is not closed within " + (MAX_NESTED_SCAN >> 20)
      + " MB after its first nested <doc> (a missing </doc>, or a parent larger than solrscale "
      + "looks ahead); what follows is read as documents";

  /** Nested {@code <doc>} elements in the range just found (a document with children). */
  int children;
  /** Stream offset up to which documents are read without looking for nested ones. */
  private long flatUntil;

  /** Whether a document start was found before: the first one is never contiguous. */
  private boolean found;

  XmlChunks(InputStream in) {
    this(in, 1 << 20);
  }

  XmlChunks(InputStream in, int bufferSize) {
    super(in, bufferSize);
  }

  @Override
  boolean next() throws IOException {
    error = null;
    children = 0;
    if (!findStart()) {
      return false;
    }
    if (!isDocStart(start)) { // a <delete>: reported, never dropped without a word
      pos = start + 7;
      end = pos;
      error = DELETE;
      return true;
    }
    pos = start + 4;
    int depth = 1;
    long inner = -1; // stream offset of the first nested <doc, if any
    // after a look-ahead that found no parent, the documents it ran over are read flat: a second
    // look-ahead over the same bytes could make many missing </doc> cost quadratic time
    boolean nesting = offset(start) >= flatUntil;
    while (true) {
      if (inner >= 0 && offset(pos) - inner > MAX_NESTED_SCAN) {
        return notClosed(inner, TOO_FAR);
      }
      // looking for </doc> and <doc; and, once inside a nested one, for </add> too
      int at = inner >= 0 ? Bytes.indexOf(buf, pos, limit, (byte) '<')
          : Bytes.indexOfPair(buf, pos, limit, (byte) '<', (byte) '/', (byte) 'd');
      if (at < 0) {
        pos = inner >= 0 ? limit : Math.max(pos, limit - 1); // the last byte may start a pair
        if (!refill()) {
          return inner >= 0 ? notClosed(inner, NOT_CLOSED) : unclosedAtEnd();
        }
        continue;
      }
      if (buf[at] == '/') {
        if (buf[at - 1] != '<') {
          pos = at + 1;
          continue;
        }
        at--;
      }
      pos = at;
      if (!have(6)) {
        if (inner >= 0) {
          return notClosed(inner, NOT_CLOSED);
        }
        if (isDocStart(pos)) {
          return notClosed(offset(pos), NOT_CLOSED);
        }
        return unclosedAtEnd();
      }
      if (Bytes.startsWith(buf, pos, limit, "</doc>")) {
        pos += 6;
        if (--depth == 0) {
          end = pos;
          return true;
        }
        continue;
      }
      if (isDocStart(pos)) {
        if (!nesting) {
          return notClosed(offset(pos), NOT_CLOSED);
        }
        if (inner < 0) {
          inner = offset(pos);
        }
        children++;
        int gt = Bytes.indexOf(buf, pos, limit, (byte) '>');
        if (gt > 0 && buf[gt - 1] == '/') { // <doc/>: an empty child, no deeper
          pos = gt + 1;
          continue;
        }
        depth++;
        pos += 4;
        continue;
      }
      if (inner >= 0 && Bytes.startsWith(buf, pos, limit, "</add>")) {
        return notClosed(inner, NOT_CLOSED);
      }
      pos += buf[pos + 1] == '/' ? 2 : 1; // past "</": the pair search would find its "/d" again
    }
  }

  /** The current document ends where the {@code <doc} at stream offset {@code next} starts. */
  private boolean notClosed(long next, String why) {
    flatUntil = Math.max(flatUntil, offset(pos));
    pos = index(next);
    end = pos; // the next document starts here; the scan resumes with it
    error = why;
    children = 0;
    return true;
  }

  /** Moves {@link #start} to the next {@code <doc} start tag; false at the end of the input. */
  private boolean findStart() throws IOException {
    contiguous = found;
    start = pos;
    while (true) {
      int lt = Bytes.indexOfPair(buf, pos, limit, (byte) '<', (byte) '<', (byte) 'd');
      contiguous &= blank(pos, lt < 0 ? limit - 1 : lt);
      if (lt < 0) {
        pos = Math.max(pos, limit - 1); // the last byte may start a pair
        start = pos;
        if (!refill()) {
          return false;
        }
        continue;
      }
      pos = lt;
      start = lt;
      if (!have(5)) {
        return false;
      }
      if (buf[pos + 2] == 'e') {
        have(8); // enough to tell a <delete
      }
      if (isDocStart(pos) || isTag(pos, "<delete")) {
        found = true;
        return true;
      }
      contiguous = false;
      pos++;
      start = pos;
    }
  }

  private boolean unclosedAtEnd() {
    end = limit;
    pos = limit;
    error = NOT_CLOSED_AT_END;
    return true;
  }

  /** {@code <doc} followed by white space, '>' or '/'. */
  private boolean isDocStart(int at) {
    return isTag(at, "<doc");
  }

  /** {@code tag} followed by white space, '>' or '/'. */
  private boolean isTag(int at, String tag) {
    int n = tag.length();
    if (at + n + 1 > limit || !Bytes.startsWith(buf, at, limit, tag)) {
      return false;
    }
    byte c = buf[at + n];
    return c == '>' || c == '/' || c == ' ' || c == '\n' || c == '\t' || c == '\r';
  }
}
