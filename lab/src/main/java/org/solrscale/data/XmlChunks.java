package org.solrscale.data;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * The {@code <doc ...>...</doc>} ranges of a Solr XML stream. A {@code <doc} that starts before the
 * current one ended is either a nested child document or the next document after a missing {@code
 * </doc>}; only what follows tells them apart. So the scan (a look-ahead) counts depth: if the
 * outer document closes (within {@link #MAX_NESTED_SCAN} bytes of its first nested one, and before
 * an {@code </add>} or the end of the input) the whole range is one document with {@link #children}
 * nested ones; otherwise the outer one is a range with an error and the scan resumes at the inner
 * start, so one broken document never swallows its neighbours. What the failed look-ahead learnt
 * about the documents it ran over (which closed where, with how many children) is kept, so they are
 * not scanned again (many missing {@code </doc>} would otherwise cost quadratic time) and a
 * well-formed family after a broken document is still read whole. Comments and CDATA sections are
 * skipped whole, inside documents and between them, and processing instructions and the DOCTYPE
 * between them: their text is not markup.
 */
final class XmlChunks extends ChunkScanner {
  static final String NOT_CLOSED = "document is not closed before the next <doc> (missing </doc>)";
  static final String NOT_CLOSED_AT_END = "document is not closed before the end of the file";
  static final String DELETE =
      "<delete> is an update command, not a document: solrscale only adds "
          + "documents, so it was not applied (send it to Solr yourself)";
  static final String SECTION_NOT_CLOSED =
      "a comment (<!--), CDATA section, processing "
          + "instruction (<?) or DOCTYPE is not closed before the end of the file, so nothing after it "
          + "was read";
  static final String SECTION_IN_DOCUMENT =
      "a comment (<!--), CDATA section or processing "
          + "instruction (<?) in the document is not closed before the end of the file: the document "
          + "ends at the next <doc>, and what follows is read as documents";
  static final String SECTION_OPEN =
      "a comment (<!--), CDATA section or processing instruction "
          + "(<?) is not closed before the end of the file: what follows is read from the next <doc>";
  static final String NO_OVERWRITE =
      "<add overwrite=\"false\"> is not supported: solrscale sends "
          + "every document as a plain add, which replaces a stored one with the same id (only the "
          + "first such <add> in a file is reported)";

  /** How far past its first inner {@code <doc} a document may run and still count as its parent. */
  static final int MAX_NESTED_SCAN = 8 << 20;

  static final String TOO_FAR =
      "document is not closed within "
          + (MAX_NESTED_SCAN >> 20)
          + " MB after its first nested <doc> (a missing </doc>, or a parent larger than solrscale "
          + "looks ahead); what follows is read as documents";

  /** The largest document read (and kept in memory); a larger one is reported and skipped. */
  static final int MAX_DOCUMENT = 256 << 20;

  static final String TOO_LARGE =
      "document is larger than "
          + (MAX_DOCUMENT >> 20)
          + " MB (or "
          + "not closed, with no <doc> after it), so it was skipped: solrscale reads documents up to "
          + (MAX_DOCUMENT >> 20)
          + " MB";

  private final long maxDocument;

  /** The longest start or end tag looked into; a longer one is not held in memory. */
  private static final int MAX_TAG = 1 << 16;

  /** Nested {@code <doc>} elements in the range just found (a document with children). */
  int children;

  /** What a failed look-ahead found about a document it ran over: its range and error. */
  private record Known(long start, long end, int children, String error) {}

  /** What the last failed look-ahead found, in stream order. */
  private final ArrayDeque<Known> known = new ArrayDeque<>();

  /**
   * The nested {@code <doc>} starts of the current look-ahead, their ends (-1: open) and children.
   */
  private long[] starts = new long[16];

  private long[] ends = new long[16];
  private int[] kids = new int[16];
  private int nested;

  /** The indexes (into {@link #starts}) of the nested documents still open, innermost last. */
  private int[] open = new int[16];

  private int depth;

  /** Tags that may stand between documents without a word. */
  private static final String[] WRAPPERS = {
    "<add", "</add", "<commit", "</commit", "<optimize", "</optimize", "<rollback", "</rollback"
  };

  static final String STRAY =
      "not a Solr document, so skipped: %s (solrscale reads "
          + "<add><doc><field name=\"...\">; names are case-sensitive, namespaces are not supported; "
          + "only the first such place in a file is reported)";
  private boolean strayReported;
  static final String SWALLOWED =
      "%s, and it was skipped to its end: documents in it were not "
          + "read; check the file there (only the first such place in a file is reported)";

  /** Whether the section just skipped between documents may have swallowed documents. */
  private String swallowed;

  private boolean swallowReported;

  /** Whether a skip between documents lets the bytes it passed go (they are not a range). */
  private boolean dropping;

  private boolean overwriteReported;

  /** A look-ahead stopped because what it holds passed its bound (see {@link #more}). */
  private boolean tooLarge;

  /** The kinds of section {@link #unclosedFrom} knows: indexes into it. */
  private static final int PI = 0;

  private static final int COMMENT = 1;
  private static final int CDATA = 2;

  /**
   * Per kind of section (processing instruction, comment, CDATA), the offset from which one is
   * known not to close before the end of the input: one that starts later does not either, so it is
   * not searched to the end again (which, once per document, would cost quadratic time).
   */
  private final long[] unclosedFrom = {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE};

  /** A section not closed inside a skipped element, reported by the next call (or null). */
  private String pending;

  private long pendingOffset;
  private long pendingLine;

  /** Whether a document start was found before: the first one is never contiguous. */
  private boolean found;

  XmlChunks(InputStream in) {
    this(in, 1 << 20);
  }

  XmlChunks(InputStream in, int bufferSize) {
    this(in, bufferSize, MAX_DOCUMENT);
  }

  /** With a smaller {@code maxDocument}, for tests. */
  XmlChunks(InputStream in, int bufferSize, long maxDocument) {
    super(in, bufferSize);
    this.maxDocument = maxDocument;
  }

  @Override
  boolean next() throws IOException {
    error = null;
    errorOffset = -1;
    errorLine = -1;
    children = 0;
    if (pending != null) { // the skip before ran to the end of the input
      String why = pending;
      pending = null;
      return endOfInput(why, pendingOffset, pendingLine);
    }
    if (!findStart()) {
      return false;
    }
    if (error != null) { // stray content, or a section not closed before the end
      return true;
    }
    if (!isDocStart(start)) { // a <delete>: reported, never dropped without a word
      return skipDelete();
    }
    while (!known.isEmpty() && known.peekFirst().start() < offset(start)) {
      known.pollFirst(); // a child of a document read whole
    }
    if (!known.isEmpty() && known.peekFirst().start() == offset(start)) {
      Known k = known.pollFirst();
      end = index(k.end());
      pos = end;
      children = k.children();
      error = k.error();
      return true;
    }
    return lookAhead();
  }

  /**
   * At {@code <delete}: moves past the whole element, what it deletes included, without keeping its
   * bytes; an element not closed before the next {@code <doc} ends there, so the documents after it
   * are still read.
   */
  private boolean skipDelete() throws IOException {
    errorOffset = offset(start);
    errorLine = countsLines() ? lineAt(start) : -1;
    error = DELETE;
    pos = start + 7;
    dropping = true;
    if (pastTag() && buf[pos - 2] != '/' && !dropUntil("</delete")) {
      pending = SECTION_NOT_CLOSED;
    }
    dropping = false;
    start = pos;
    end = pos;
    return true;
  }

  /**
   * Moves past the end tag that starts with {@code close} ({@code </delete} or {@code </doc}), or
   * up to the next {@code <doc}, or to the end, skipping comments, CDATA sections and processing
   * instructions whole. The caller has set {@link #dropping}: nothing of it is kept. False when
   * such a section is not closed before the end of the input (its start is then in {@link
   * #pendingOffset}): everything after it was skipped with it.
   */
  private boolean dropUntil(String close) throws IOException {
    while (true) {
      int lt = Bytes.indexOf(buf, pos, limit, (byte) '<');
      if (lt < 0) {
        pos = limit;
        start = pos;
        if (!refill()) {
          return true;
        }
        continue;
      }
      pos = lt;
      start = pos;
      have(9);
      byte c = pos + 1 < limit ? buf[pos + 1] : 0;
      if (c == '!' || c == '?') { // a section may hold "<doc" or the end tag
        pendingOffset = offset(pos);
        pendingLine = countsLines() ? lineAt(pos) : -1;
        if (c == '!' ? !skipSection() : !skipPast("?>")) {
          return false;
        }
        continue;
      }
      if (Bytes.startsWith(buf, pos, limit, close)) {
        if (!close.equals("</doc")) {
          pastTag();
          return true;
        }
        int endTag = docEndTag(); // "</doc" and white space up to '>', nothing else
        if (endTag > 0) {
          pos += endTag;
          return true;
        }
      }
      if (isDocStart(pos)) {
        return true;
      }
      pos++;
    }
  }

  /** Finds the end of the document at {@link #start}, counting the depth of nested ones. */
  private boolean lookAhead() throws IOException {
    known.clear();
    tooLarge = false;
    nested = 0;
    depth = 0;
    pos = start + 4;
    if (!pastTag()) {
      return tooLarge ? skipTooLarge(true) : unclosedAtEnd();
    }
    if (buf[pos - 2] == '/') { // <doc/>: an empty document
      end = pos;
      return true;
    }
    while (true) {
      if (nested > 0 && offset(pos) - starts[0] > MAX_NESTED_SCAN) {
        return giveUp(TOO_FAR, false);
      }
      if (nested == 0 && pos - start > maxDocument) { // the buffer holds it all: bounded
        return skipTooLarge(true);
      }
      // looking for </doc> and <doc; and, once inside a nested one, for </add> too
      int at =
          nested > 0
              ? Bytes.indexOf(buf, pos, limit, (byte) '<')
              : Bytes.indexOfMarkup(buf, pos, limit, true);
      if (at < 0) {
        pos = nested > 0 ? limit : Math.max(pos, limit - 1); // the last byte may start a pair
        if (!refill()) {
          return nested == 0 && pos - start > maxDocument
              ? skipTooLarge(true)
              : giveUp(NOT_CLOSED, true);
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
      have(9);
      byte c = pos + 1 < limit ? buf[pos + 1] : 0;
      if (c == '!' || c == '?') { // a comment, CDATA or PI: may hold "<doc" or "</doc>", not markup
        int kind = sectionKind(pos);
        long from = offset(pos); // the buffer may shift while the section is skipped
        boolean closed =
            (kind < 0 || from < unclosedFrom[kind]) && (c == '?' ? skipPast("?>") : skipSection());
        if (!closed) {
          return sectionFailed(index(from), kind);
        }
        continue;
      }
      int endTag = docEndTag();
      if (endTag > 0) {
        pos += endTag;
        if (depth == 0) {
          end = pos;
          children = nested;
          return true;
        }
        int closed = open[--depth];
        ends[closed] = offset(pos);
        kids[closed] = nested - closed - 1;
        continue;
      }
      if (isDocStart(pos)) {
        int k = addNested(offset(pos));
        pos += 4;
        if (!pastTag()) {
          if (tooLarge) {
            tooLarge = false;
            return giveUp(TOO_FAR, false);
          }
          return giveUp(NOT_CLOSED, true);
        }
        if (buf[pos - 2] == '/') { // <doc/>: an empty child, no deeper
          ends[k] = offset(pos);
        } else {
          if (depth == open.length) {
            open = Arrays.copyOf(open, depth * 2);
          }
          open[depth++] = k;
        }
        continue;
      }
      if (nested > 0 && Bytes.startsWith(buf, pos, limit, "</add>")) {
        return giveUp(NOT_CLOSED, false);
      }
      pos += pos + 1 < limit && buf[pos + 1] == '/' ? 2 : 1; // past "</": "/d" is found again
    }
  }

  /**
   * The document at {@link #start} is larger than {@link #maxDocument}, with nothing nested so far:
   * reported, and skipped without keeping its bytes to its {@code </doc>} (or up to the next {@code
   * <doc}, or the end), or with {@code sections} false (one in it is known not to close) to the
   * next {@code <doc}.
   */
  private boolean skipTooLarge(boolean sections) throws IOException {
    tooLarge = false;
    errorOffset = offset(start);
    errorLine = countsLines() ? lineAt(start) : -1;
    error = TOO_LARGE;
    if (pos > 0 && buf[pos - 1] == '<') { // the scan may stand on the '/' of a "</"
      pos--;
    }
    dropping = true;
    if (!sections) {
      nextDocStart();
    } else if (!dropUntil("</doc")) {
      pending = SECTION_NOT_CLOSED;
    }
    dropping = false;
    start = pos;
    end = pos;
    return true;
  }

  /**
   * A comment, CDATA section or processing instruction of {@code kind} (or -1: another {@code <!})
   * at {@code at} in the document being looked at is not closed before the end of the input, or the
   * look-ahead passed its bound in it ({@link #tooLarge}). Not closed: the document ends at the
   * next {@code <doc} after it (a broken document must not swallow the rest of the file), bounded
   * as a look-ahead is; or, with documents nested before the section, at the first of them, as a
   * document not closed does (the section is met again later, known).
   */
  private boolean sectionFailed(int at, int kind) throws IOException {
    if (!tooLarge) {
      if (kind >= 0) {
        unclosedFrom[kind] = Math.min(unclosedFrom[kind], offset(at));
      }
      if (nested > 0) { // the outer one ends at its first nested <doc>, as when not closed, so
        // the well-formed ones after it are read; the one holding the section meets it again
        return giveUp(NOT_CLOSED, false);
      }
      pos = at + 2;
      boolean found = nextDocStart();
      if (found || !tooLarge) {
        end = found ? pos : limit;
        pos = end;
        error = SECTION_IN_DOCUMENT;
        children = 0;
        return true;
      }
      return skipTooLarge(false);
    }
    tooLarge = false;
    if (nested > 0) {
      return giveUp(TOO_FAR, false);
    }
    pos = at; // skipped again from its start, without keeping it
    return skipTooLarge(true);
  }

  /**
   * The kind of section at {@code buf[at]} ({@link #PI}, {@link #COMMENT}, {@link #CDATA}), or -1.
   */
  private int sectionKind(int at) {
    return buf[at + 1] == '?'
        ? PI
        : Bytes.startsWith(buf, at, limit, "<!--")
            ? COMMENT
            : Bytes.startsWith(buf, at, limit, "<![CDATA[") ? CDATA : -1;
  }

  /**
   * Moves {@link #pos} to the next {@code <doc} start tag; false at the end of the input or, in a
   * look-ahead, past its bound.
   */
  private boolean nextDocStart() throws IOException {
    while (seek((byte) '<')) {
      if (have(5) && isDocStart(pos)) {
        return true;
      }
      pos++;
    }
    return false;
  }

  /**
   * Moves {@link #pos} to the next {@code b}, reading on as {@link #more} does; false at the end of
   * the input or past a look-ahead's bound.
   */
  private boolean seek(byte b) throws IOException {
    while (true) {
      int k = Bytes.indexOf(buf, pos, limit, b);
      if (k >= 0) {
        pos = k;
        start = dropping ? pos : start;
        return true;
      }
      pos = limit;
      start = dropping ? pos : start;
      if (!more()) {
        return false;
      }
    }
  }

  /**
   * Reads more input as {@link #refill} does; but a look-ahead (which keeps its bytes) stops, with
   * {@link #tooLarge} set, once it holds more than {@link #maxDocument} (or, past a nested
   * document, more than {@link #MAX_NESTED_SCAN}): so a section or tag in a document is bounded as
   * its text is.
   */
  private boolean more() throws IOException {
    if (!dropping
        && (nested == 0
            ? limit - start > maxDocument
            : offset(limit) - starts[0] > MAX_NESTED_SCAN)) {
      tooLarge = true;
      return false;
    }
    return refill();
  }

  private int addNested(long at) {
    if (nested == starts.length) {
      starts = Arrays.copyOf(starts, nested * 2);
      ends = Arrays.copyOf(ends, nested * 2);
      kids = Arrays.copyOf(kids, nested * 2);
    }
    starts[nested] = at;
    ends[nested] = -1;
    kids[nested] = 0;
    return nested++;
  }

  /**
   * The document at {@link #start} is not closed: it ends where its first nested one starts (or at
   * the end of the input). Keeps what the look-ahead learnt about the nested ones: where those that
   * closed end, and that those still open end at their own first nested one. The innermost open
   * one, with none nested, gets its own look-ahead unless the input ended ({@code atEnd}).
   */
  private boolean giveUp(String why, boolean atEnd) {
    for (int k = 0; k < nested; k++) {
      if (ends[k] >= 0) {
        known.add(new Known(starts[k], ends[k], kids[k], null));
      } else if (k + 1 < nested) { // too far: perhaps a parent larger than the look-ahead, say so
        known.add(new Known(starts[k], starts[k + 1], 0, why == TOO_FAR ? TOO_FAR : NOT_CLOSED));
      } else if (atEnd) {
        known.add(new Known(starts[k], offset(limit), 0, NOT_CLOSED_AT_END));
      }
    }
    if (nested == 0) {
      return unclosedAtEnd();
    }
    pos = index(starts[0]);
    end = pos; // the next document starts here; the scan resumes with it
    error = why;
    children = 0;
    return true;
  }

  /** The length of a {@code </doc>} end tag (white space before its '>' allowed) at pos, or 0. */
  private int docEndTag() throws IOException {
    if (!Bytes.startsWith(buf, pos, limit, "</doc")) {
      return 0;
    }
    for (int k = 5; k < MAX_TAG && have(k + 1); k++) { // past that: reported as not closed
      byte c = buf[pos + k];
      if (c == '>') {
        return k + 1;
      }
      if (!space(c)) {
        return 0;
      }
    }
    return 0;
  }

  /** Moves {@link #pos} past the next '>'; false at the end of the input. */
  private boolean pastTag() throws IOException {
    while (true) {
      int gt = Bytes.indexOf(buf, pos, limit, (byte) '>');
      if (gt >= 0) {
        pos = gt + 1;
        return true;
      }
      pos = limit;
      start = dropping ? Math.max(0, pos - 1) : start; // the byte before '>' may be a '/'
      if (!more()) {
        return false;
      }
    }
  }

  /** Moves {@link #pos} past the next {@code ascii}; false (at the end) if there is none. */
  private boolean skipPast(String ascii) throws IOException {
    while (seek((byte) ascii.charAt(0))) {
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
    return false;
  }

  /**
   * Moves {@link #start} to the next {@code <doc} or {@code <delete} start tag; false at the end of
   * the input. Or stops with an {@link #error} range at the first stray content outside documents
   * in the input, at an {@code <add overwrite="false">}, or at a section that is not closed.
   */
  private boolean findStart() throws IOException {
    contiguous = found;
    while (true) {
      start = pos;
      int lt = Bytes.indexOf(buf, pos, limit, (byte) '<');
      int to = lt >= 0 ? lt : limit;
      if (!blank(pos, to)) {
        contiguous = false;
        int text = strayReported ? -1 : firstText(pos, to);
        if (text >= 0) {
          return stray(text, text + 1);
        }
      }
      if (lt < 0) {
        pos = limit;
        start = pos;
        if (!refill()) {
          return false;
        }
        continue;
      }
      pos = lt;
      start = lt;
      have(9); // enough to tell <doc, <delete and <![CDATA[ apart
      if (isDocStart(pos) || isTag(pos, "<delete")) {
        found = true;
        return true;
      }
      contiguous = false;
      byte c = pos + 1 < limit ? buf[pos + 1] : 0;
      if (c == '?' || c == '!') {
        long from = offset(pos);
        boolean cdata = Bytes.startsWith(buf, pos, limit, "<![CDATA[");
        boolean doctype = Bytes.startsWith(buf, pos, limit, "<!DOCTYPE");
        if (c == '!' && !cdata && !doctype && !Bytes.startsWith(buf, pos, limit, "<!--")) {
          if (!strayReported) { // some other "<!": nothing a Solr XML file holds
            return stray(pos, pos + 2);
          }
          pos += 2;
          continue;
        }
        long fromLine = countsLines() ? lineAt(pos) : -1;
        int kind = sectionKind(pos);
        if (kind >= 0 && from >= unclosedFrom[kind]) { // known not to close (a look-ahead met it)
          errorOffset = from;
          errorLine = fromLine;
          dropping = true;
          pos += 2;
          nextDocStart(); // at the next <doc>, or the end
          dropping = false;
          return problem(SECTION_OPEN, pos, pos);
        }
        dropping = true; // between documents nothing of it is needed: memory stays bounded
        swallowed = null;
        boolean closed =
            c == '?'
                ? skipPast("?>")
                : doctype ? skipDoctype() : cdata ? skipSection() : skipComment();
        dropping = false;
        if (!closed) {
          return endOfInput(SECTION_NOT_CLOSED, from, fromLine);
        }
        if (swallowed != null && !swallowReported) {
          swallowReported = true;
          errorOffset = from;
          errorLine = fromLine;
          return problem(String.format(SWALLOWED, swallowed), pos, pos);
        }
        if (cdata && cdataText >= 0) { // character data between documents, like any text there
          strayReported = true;
          errorOffset = cdataText;
          errorLine = cdataLine;
          return problem(String.format(STRAY, cdataExcerpt), pos, pos);
        }
        continue;
      }
      if (wrapper(pos)) {
        long from = offset(pos);
        boolean add = isTag(pos, "<add");
        if (!skipTag()) {
          return stray(Math.max(index(from), start), limit);
        }
        if (add
            && !overwriteReported
            && index(from) >= 0
            && NO_OVERWRITE_ATTRIBUTE
                .matcher(
                    new String(buf, index(from), pos - index(from), StandardCharsets.ISO_8859_1))
                .find()) {
          overwriteReported = true;
          return problem(NO_OVERWRITE, index(from), pos);
        }
        continue;
      }
      if (!strayReported) {
        return stray(pos, pos + 1);
      }
      pos++;
    }
  }

  private static final Pattern NO_OVERWRITE_ATTRIBUTE =
      Pattern.compile("\\soverwrite\\s*=\\s*[\"']false[\"']");

  /** The first byte in {@code buf[from, to)} that is not white space (or the byte order mark). */
  private int firstText(int from, int to) {
    for (int k = from; k < to; k++) {
      if (offset(k) == 0 && isByteOrderMark(k)) {
        k += 2;
      } else if (!space(buf[k])) {
        return k;
      }
    }
    return -1;
  }

  /**
   * Reports the first stray content of the input, at {@code at}, once (say {@code <ADD><DOC>},
   * which would otherwise give no documents and no word): an {@link #error} range, after which the
   * scan goes on at {@code resume}.
   */
  private boolean stray(int at, int resume) {
    strayReported = true;
    return problem(String.format(STRAY, excerpt(at)), at, resume);
  }

  /** Up to about 40 bytes from {@code at}, to the end of a tag or the line. */
  private String excerpt(int at) {
    int stop = at + 1;
    while (stop < limit
        && stop - at < 40
        && buf[stop - 1] != '>'
        && buf[stop] != '\n'
        && buf[stop] != '\r') { // a '\r' in a message would hide its file:line on a terminal
      stop++;
    }
    while (stop < limit && (buf[stop] & 0xC0) == 0x80) { // never half a character
      stop++;
    }
    return new String(buf, at, stop - at, StandardCharsets.UTF_8);
  }

  /** Text in a CDATA section between documents: where it starts, or -1. */
  private long cdataText = -1;

  private long cdataLine;
  private String cdataExcerpt;

  /** The offset up to which that section was looked at (its bytes are not kept). */
  private long cdataChecked;

  private void lookForText(int upto) {
    if (cdataText < 0 && !strayReported) {
      int k = firstText(Math.max(index(cdataChecked), 0), upto);
      if (k >= 0) {
        cdataText = offset(k);
        cdataLine = countsLines() ? lineAt(k) : -1;
        cdataExcerpt = excerpt(k);
      }
    }
    cdataChecked = Math.max(cdataChecked, offset(upto));
  }

  /**
   * An empty error range at the end of the input, for a problem at {@code offset}, {@code line}.
   */
  private boolean endOfInput(String why, long offset, long line) {
    errorOffset = offset;
    errorLine = line;
    return problem(why, limit, limit);
  }

  private boolean problem(String why, int at, int resume) {
    error = why;
    start = at;
    end = at;
    pos = resume;
    return true;
  }

  /** Whether the tag at {@code buf[k]} is one that may stand between documents. */
  private boolean wrapper(int k) {
    for (String t : WRAPPERS) {
      if (isTag(k, t)) {
        return true;
      }
    }
    return false;
  }

  /** At a tag: moves past its '>', or up to a '<' before it (a broken tag); false at the end. */
  private boolean skipTag() throws IOException {
    pos++;
    while (true) {
      if (pos == limit) {
        if (pos - start > MAX_TAG) { // no wrapper tag is this long: not held (nor looked into)
          start = pos;
        }
        if (!refill()) {
          return false;
        }
      }
      byte c = buf[pos];
      if (c == '<') {
        return true;
      }
      pos++;
      if (c == '>') {
        return true;
      }
    }
  }

  /**
   * At {@code <!DOCTYPE}: moves past it, its internal subset ({@code [...]}) included; quoted
   * literals, comments and processing instructions in it may hold any of {@code [ ] > <doc}.
   */
  private boolean skipDoctype() throws IOException {
    boolean subset = false;
    byte quote = 0;
    pos += 2;
    while (true) {
      if (pos == limit) {
        start = dropping ? pos : start;
        if (!refill()) {
          return false;
        }
      }
      byte c = buf[pos];
      if (c == '<' && swallowed == null) {
        start = dropping ? pos : start;
        if (have(5) && isDocStart(pos)) {
          swallowed = "a DOCTYPE holds <doc> (in a literal, or after a quote left open)";
        }
      }
      if (quote != 0) {
        quote = c == quote ? 0 : quote;
        pos++;
      } else if (c == '"' || c == '\'') {
        quote = c;
        pos++;
      } else if (subset && c == '<') {
        start = dropping ? pos : start;
        have(4);
        String close =
            Bytes.startsWith(buf, pos, limit, "<!--")
                ? "-->"
                : Bytes.startsWith(buf, pos, limit, "<?") ? "?>" : null;
        pos += close == null ? 1 : close.length() == 3 ? 4 : 2; // "<!-->" does not close it
        if (close != null && !skipPast(close)) {
          return false;
        }
      } else {
        pos++;
        if (c == '[') {
          subset = true;
        } else if (c == ']') {
          subset = false;
        } else if (c == '>' && !subset) {
          return true;
        }
      }
    }
  }

  /**
   * Between documents, at {@code <!--}: moves past the comment without keeping it; false at the end
   * of the input. A {@code --} inside it (which XML forbids, and which a {@code <!--} left open
   * before another comment brings) is noted in {@link #swallowed}.
   */
  private boolean skipComment() throws IOException {
    pos += 4;
    while (true) {
      int k = Bytes.indexOf(buf, pos, limit, (byte) '-');
      if (k < 0) {
        pos = limit;
        start = pos;
        if (!refill()) {
          return false;
        }
        continue;
      }
      pos = k;
      start = pos;
      if (!have(3)) {
        pos = limit;
        return false;
      }
      if (buf[pos + 1] == '-') {
        if (buf[pos + 2] == '>') {
          pos += 3;
          return true;
        }
        swallowed =
            "a comment holds '--', which XML forbids (often a <!-- left open before another "
                + "comment)";
      }
      pos++; // "--->": the second '-' starts the end
    }
  }

  /**
   * At {@code <!}: moves past a comment or CDATA section, or past the {@code <!} of anything else.
   * False when the section is not closed before the end of the input. The bytes from {@link #start}
   * on stay in the buffer.
   */
  private boolean skipSection() throws IOException {
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
      return true;
    }
    long text = offset(pos + open); // "<!-->" does not close the comment it opens
    boolean look = dropping && close == ']'; // character data between documents is text
    cdataText = -1;
    cdataChecked = text;
    int k = pos + open;
    while (true) {
      int gt = Bytes.indexOf(buf, k, limit, (byte) '>');
      if (gt < 0) {
        long scanned = offset(limit);
        pos = Math.max(pos, limit - 2); // the two bytes before a '>' still to come
        if (look) {
          lookForText(pos);
        }
        start = dropping ? pos : start;
        if (!more()) {
          return false;
        }
        k = index(scanned);
        continue;
      }
      if (offset(gt) - 2 >= text && buf[gt - 1] == close && buf[gt - 2] == close) {
        if (look) {
          lookForText(gt - 2);
        }
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
    return c == '>' || c == '/' || space(c);
  }

  private static boolean space(byte c) {
    return c == ' ' || c == '\n' || c == '\t' || c == '\r';
  }
}
