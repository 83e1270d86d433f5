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
 * document never swallows its neighbours. Comments and CDATA sections are skipped whole, inside
 * documents and between them: their text is not markup.
 */
final class XmlChunks extends ChunkScanner {
  static final String NOT_CLOSED = "document is not closed before the next <doc> (missing </doc>)";
  static final String NOT_CLOSED_AT_END = "document is not closed before the end of the file";
  static final String DELETE = "<delete> is an update command, not a document: solrscale only adds "
      + "documents, so it was not applied (send it to Solr yourself)";
  static final String SECTION_NOT_CLOSED = "a comment (<!--) or CDATA section is not closed before "
      + "the end of the file, so nothing after it was read";
  /** How far past its first inner {@code <doc} a document may run and still count as its parent. */
  static final int MAX_NESTED_SCAN = 8 << 20;

  static final String TOO_FAR = "document is not closed within " + (MAX_NESTED_SCAN >> 20)
      + " MB after its first nested <doc> (a missing </doc>, or a parent larger than solrscale "
      + "looks ahead); what follows is read as documents";

  /** Nested {@code <doc>} elements in the range just found (a document with children). */
  int children;
  /** Stream offset up to which documents are read without looking for nested ones. */
  private long flatUntil;

  /** Tags that may stand between documents without a word. */
  private static final String[] WRAPPERS = {"<add", "</add", "<commit", "</commit", "<optimize",
    "</optimize", "<rollback", "</rollback"};
  /** Bytes kept back from the gap check at the end of the buffer, so that a tag is seen whole. */
  private static final int TAIL = 16;
  static final String STRAY = "not a Solr document, so skipped: %s (solrscale reads "
      + "<add><doc><field name=\"...\">; names are case-sensitive, namespaces are not supported; "
      + "only the first such place in a file is reported)";
  /** Stream offset up to which the content between documents was looked at. */
  private long checked;
  /** Whether the gap check is inside a tag (it only looks for the tag's end). */
  private boolean inTag;
  private boolean strayReported;

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
    if (error != null) { // a section not closed before the end
      return true;
    }
    if (!isDocStart(start)) { // a <delete>: reported, never dropped without a word
      pos = start + 7;
      if (skipPast(">") && buf[pos - 2] != '/') { // the whole element, what it deletes included
        skipPast("</delete");
        skipPast(">");
      }
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
          : Bytes.indexOfMarkup(buf, pos, limit, true);
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
      if (buf[pos + 1] == '!') { // a comment or CDATA: its text may hold "<doc" or "</doc>"
        if (!skipSection(false)) {
          return unclosedAtEnd();
        }
        continue;
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

  /** Moves {@link #pos} past the next {@code ascii}; false (at the end) if there is none. */
  private boolean skipPast(String ascii) throws IOException {
    while (true) {
      int k = Bytes.indexOf(buf, pos, limit, (byte) ascii.charAt(0));
      if (k < 0) {
        pos = limit;
        if (!refill()) {
          return false;
        }
        continue;
      }
      pos = k;
      if (!have(ascii.length())) {
        pos = limit;
        return false;
      }
      if (Bytes.startsWith(buf, pos, limit, ascii)) {
        pos += ascii.length();
        return true;
      }
      pos++;
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

  /**
   * Moves {@link #start} to the next {@code <doc} start tag; false at the end of the input. Or
   * stops with an {@link #error} range at the first stray content outside documents in the input,
   * or at a section that is not closed.
   */
  private boolean findStart() throws IOException {
    contiguous = found;
    start = pos;
    while (true) {
      int lt = Bytes.indexOfMarkup(buf, pos, limit, false);
      int gapEnd = lt >= 0 ? lt : Math.max(pos, limit - TAIL); // a tag cut at the end is seen whole
      contiguous &= blank(pos, gapEnd);
      if (stray(pos, gapEnd)) {
        return true;
      }
      if (lt < 0) {
        pos = gapEnd;
        start = pos;
        if (!refill()) {
          return stray(pos, limit);
        }
        continue;
      }
      pos = lt;
      start = lt;
      if (!have(5)) {
        return stray(pos, limit);
      }
      if (buf[pos + 1] == '!') { // a <doc> commented out, or in CDATA, is not a document
        contiguous = false;
        if (!skipSection(true)) {
          end = limit;
          pos = limit;
          error = SECTION_NOT_CLOSED;
          return true;
        }
        checked = offset(pos);
        start = pos;
        continue;
      }
      if (buf[pos + 2] == 'e') {
        have(8); // enough to tell a <delete
      }
      if (isDocStart(pos) || isTag(pos, "<delete")) {
        found = true;
        inTag = false;
        return true;
      }
      contiguous = false; // "<data", "<docs": not a document
      if (stray(pos, pos + 1)) {
        return true;
      }
      pos++;
      start = pos;
    }
  }

  /**
   * Whether {@code buf[from, to)}, outside documents, holds the first stray content of the input:
   * text, or a tag other than the {@code <add>} wrapper, a processing instruction or an update
   * command solrscale leaves to its commit policy. That is reported once (say {@code <ADD><DOC>},
   * which would otherwise give no documents and no word): an {@link #error} range, after which
   * the scan goes on. Bytes already looked at are not looked at again.
   */
  private boolean stray(int from, int to) {
    if (strayReported) {
      return false;
    }
    for (int k = Math.max(from, index(checked)); k < to; k++) {
      byte c = buf[k];
      if (offset(k) == 0 && isByteOrderMark(k)) {
        k += 2;
      } else if (inTag) {
        inTag = c != '>';
      } else if (c == '<' && !wrapper(k) || c != '<' && c != ' ' && c != '\n' && c != '\t' && c != '\r') {
        strayReported = true;
        inTag = c == '<';
        int stop = k + 1;
        while (stop < limit && stop - k < 40 && buf[stop - 1] != '>' && buf[stop] != '\n') {
          stop++;
        }
        error = String.format(STRAY, new String(buf, k, stop - k, java.nio.charset.StandardCharsets.UTF_8));
        start = k;
        end = k;
        pos = k + 1;
        checked = offset(pos);
        return true;
      } else {
        inTag = c == '<';
      }
    }
    checked = Math.max(checked, offset(to));
    return false;
  }


  /** Whether the tag at {@code buf[k]} is one that may stand between documents. */
  private boolean wrapper(int k) {
    if (k + 1 < limit && (buf[k + 1] == '?' || buf[k + 1] == '!')) {
      return true;
    }
    for (String t : WRAPPERS) {
      if (isTag(k, t)) {
        return true;
      }
    }
    return false;
  }

  /**
   * At {@code <!}: moves past a comment or CDATA section, or past the {@code <!} of anything else
   * (a DOCTYPE, say). False when the section is not closed before the end of the input. The bytes
   * from {@link #start} on stay in the buffer.
   */
  private boolean skipSection(boolean between) throws IOException {
    char close;
    int open;
    if (have(4) && Bytes.startsWith(buf, pos, limit, "<!--")) {
      close = '-';
      open = 4;
    } else if (have(9) && Bytes.startsWith(buf, pos, limit, "<![CDATA[")) {
      close = ']';
      open = 9;
    } else {
      pos += 2;
      inTag = between; // up to its '>'
      return true;
    }
    long text = offset(pos + open); // "<!-->" does not close the comment it opens
    int k = pos + open;
    while (true) {
      int gt = Bytes.indexOf(buf, k, limit, (byte) '>');
      if (gt < 0) {
        long scanned = offset(limit);
        pos = Math.max(pos, limit - 2); // the two bytes before a '>' still to come
        if (!refill()) {
          return false;
        }
        k = index(scanned);
        continue;
      }
      if (offset(gt) - 2 >= text && buf[gt - 1] == close && buf[gt - 2] == close) {
        pos = gt + 1;
        return true;
      }
      k = gt + 1;
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
