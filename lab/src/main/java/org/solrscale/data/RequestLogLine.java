package org.solrscale.data;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of a Solr log or of Jetty's request log, taken apart. Solr writes a request's line in
 * {@code SolrCore.execute} after the handler ran and before the response is written (the {@code
 * o.a.s.c.S.Request} logger), so the line's time is the request's end and its start is that time
 * minus QTime (QTime runs from when {@code HttpSolrCall} was made). The forms read:
 *
 * <pre>
 * 9.x: DATE TIME LEVEL (thread) [c:C s:S r:R x:X] o.a.s.c.S.Request webapp=/solr path=/select params={q=a&amp;rows=10} rid=... hits=3 status=0 QTime=5
 * 8.x: DATE TIME LEVEL (thread) [c:C s:S r:R x:X] o.a.s.c.S.Request [core]  webapp=/solr path=/select params={...} hits=3 status=0 QTime=5
 * updates: ... o.a.s.u.p.LogUpdateProcessorFactory [core]? webapp=/solr path=/update params={...}{add=[...]} 0 12
 * Jetty (NCSA): 127.0.0.1 - - [29/Nov/2026:05:52:30 +0000] "GET /solr/c/select?q=a HTTP/1.1" 200 123 ...
 * </pre>
 *
 * Solr writes the parameters {@code &}-joined, each value with space as {@code +} and {@code &},
 * {@code %}, {@code =}, {@code +} percent-encoded, and no raw space: the parameters end at the
 * first space. Solr's times have no zone: they are read in the zone given.
 */
public final class RequestLogLine {
  /** What a line was. */
  public enum Kind {
    REQUEST,
    UPDATE,
    SLOW,
    JETTY
  }

  /**
   * A request line: its log time and start (epoch ms), where it went, its parameters as logged
   * (decoded by {@link #params}, only for the requests kept) and what it answered.
   */
  public record Parsed(
      Kind kind,
      long logMs,
      long startMs,
      String collection,
      String handler,
      String rawParams,
      Long hits,
      Integer status,
      Integer qtime,
      String method,
      boolean adminWebapp) {

    /** The parameters decoded; a bad percent-encoding is {@link Bad}. */
    public Map<String, List<String>> params() throws Bad {
      return decode(rawParams);
    }

    /** A per-shard sub-request of a distributed one: Solr marks them isShard=true. */
    public boolean subRequest() {
      int i = rawParams.indexOf("isShard=true");
      while (i >= 0) {
        int end = i + 12;
        if ((i == 0 || rawParams.charAt(i - 1) == '&')
            && (end == rawParams.length() || rawParams.charAt(end) == '&')) {
          return true;
        }
        i = rawParams.indexOf("isShard=true", end);
      }
      return false;
    }
  }

  /** A line that looks like a request line but is not one that can be read: why. */
  public static final class Bad extends Exception {
    Bad(String why) {
      super(why, null, false, false);
    }
  }

  private static final DateTimeFormatter NCSA_TIME =
      DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH);

  private static final Pattern NCSA =
      Pattern.compile(
          "^\\S+ \\S+ \\S+ \\[([^\\]]+)\\] \"(\\S+) (\\S+)(?: [^\"]*)?\" (\\d{3})\\b.*");

  private RequestLogLine() {}

  /**
   * The request on {@code line}, or null when the line is no request line (another log message, a
   * stack trace's line); {@link Bad} when it looks like one but cannot be read.
   */
  public static Parsed parse(String line, ZoneId zone) throws Bad {
    int webapp = line.indexOf(" webapp=");
    if (webapp < 0) {
      return line.indexOf("\" ") > 0 && line.indexOf(" HTTP/") > 0 ? jetty(line) : null;
    }
    Kind kind;
    if (line.lastIndexOf("S.Request", webapp) >= 0
        || line.lastIndexOf("SolrCore.Request", webapp) >= 0) {
      kind = line.lastIndexOf(" slow: ", webapp) >= 0 ? Kind.SLOW : Kind.REQUEST;
    } else if (line.lastIndexOf("LogUpdateProcessor", webapp) >= 0) {
      kind = Kind.UPDATE;
    } else if (line.lastIndexOf("SlowRequest", webapp) >= 0
        || line.lastIndexOf(" slow: ", webapp) >= 0) {
      kind = Kind.SLOW;
    } else {
      return null; // another logger that mentions webapp=
    }
    long logMs = solrTime(line, zone);
    String collection = mdc(line, webapp);
    String webappValue = token(line, webapp + 8);
    int path = line.indexOf(" path=", webapp);
    if (path < 0) {
      throw new Bad("no path=");
    }
    String handler = token(line, path + 6);
    int params = line.indexOf(" params={", path);
    if (params < 0) {
      throw new Bad("no params={...}");
    }
    int from = params + 9;
    int space = line.indexOf(' ', from);
    if (space < 0) {
      throw new Bad(
          "the line ends inside params={...} (truncated? Solr cuts lines at 10,240 characters)");
    }
    String segment = line.substring(from, space);
    int close;
    if (kind == Kind.UPDATE) {
      close = segment.indexOf("}{") >= 0 ? segment.lastIndexOf("}{") : segment.lastIndexOf('}');
    } else {
      close = segment.endsWith("}") ? segment.length() - 1 : -1;
    }
    if (close < 0) {
      throw new Bad("params={...} is not closed");
    }
    String raw = segment.substring(0, close);
    Long hits = null;
    Integer status;
    Integer qtime;
    if (kind == Kind.UPDATE) {
      String[] tail = line.substring(line.lastIndexOf('}') + 1).strip().split(" ");
      if (tail.length < 2) {
        throw new Bad("no status and elapsed time after the update's parameters");
      }
      status = number(tail[tail.length - 2], "status");
      qtime = number(tail[tail.length - 1], "elapsed time");
    } else {
      int q = line.indexOf(" QTime=", space);
      if (q < 0) {
        throw new Bad("no QTime= (truncated? Solr cuts lines at 10,240 characters)");
      }
      qtime = number(token(line, q + 7), "QTime");
      int s = line.indexOf(" status=", space);
      status = s < 0 ? null : number(token(line, s + 8), "status");
      int h = line.indexOf(" hits=", space);
      hits = h < 0 || h > q ? null : (long) number(token(line, h + 6), "hits");
    }
    return new Parsed(
        kind,
        logMs,
        logMs - qtime,
        collection,
        handler,
        raw,
        hits,
        status,
        qtime,
        null,
        webappValue.equals("null"));
  }

  /** The time at the start of a Solr log line ({@code 2026-11-29 05:52:30.613}), epoch ms. */
  private static long solrTime(String line, ZoneId zone) throws Bad {
    if (line.length() < 23 || line.charAt(4) != '-' || line.charAt(13) != ':') {
      throw new Bad("no time at the start of the line (yyyy-MM-dd HH:mm:ss.SSS)");
    }
    try {
      int year = digits(line, 0, 4);
      int month = digits(line, 5, 7);
      int day = digits(line, 8, 10);
      int hour = digits(line, 11, 13);
      int minute = digits(line, 14, 16);
      int second = digits(line, 17, 19);
      int milli = line.charAt(19) == '.' || line.charAt(19) == ',' ? digits(line, 20, 23) : 0;
      LocalDateTime t = LocalDateTime.of(year, month, day, hour, minute, second, milli * 1_000_000);
      return t.atZone(zone).toInstant().toEpochMilli();
    } catch (RuntimeException e) {
      throw new Bad("no time at the start of the line (yyyy-MM-dd HH:mm:ss.SSS)");
    }
  }

  private static int digits(String s, int from, int to) {
    int n = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        throw new NumberFormatException(s.substring(from, to));
      }
      n = n * 10 + (c - '0');
    }
    return n;
  }

  /**
   * The collection from the line's MDC ({@code [c:C s:S r:R x:X]}), else the core ({@code x:}),
   * else the 8.x core prefix ({@code [core] webapp=}); null when none names one.
   */
  private static String mdc(String line, int webapp) {
    int open = line.indexOf(") [");
    String core = null;
    if (open >= 0 && open < webapp) {
      int close = line.indexOf(']', open + 3);
      if (close > 0 && close < webapp) {
        String c = mdcValue(line, open + 3, close, "c:");
        if (c != null) {
          return c;
        }
        core = mdcValue(line, open + 3, close, "x:");
      }
    }
    if (core == null) {
      int close = line.lastIndexOf(']', webapp);
      int open2 = close < 0 ? -1 : line.lastIndexOf('[', close);
      if (open2 >= 0 && line.substring(close + 1, webapp).isBlank() && close > open2 + 1) {
        String prefix = line.substring(open2 + 1, close);
        if (!prefix.contains(" ") && !prefix.contains(":") && !prefix.equals("admin")) {
          core = prefix;
        }
      }
    }
    return core;
  }

  /** The value of {@code key} (c:, x:) among the space-separated MDC entries in [from, to). */
  private static String mdcValue(String line, int from, int to, String key) {
    int i = from;
    while (i < to) {
      int end = line.indexOf(' ', i);
      if (end < 0 || end > to) {
        end = to;
      }
      if (end - i > 2 && line.startsWith(key, i)) {
        return line.substring(i + 2, end);
      }
      i = end + 1;
    }
    return null;
  }

  /** The text from {@code from} to the next space or the end. */
  private static String token(String line, int from) {
    int end = line.indexOf(' ', from);
    return line.substring(from, end < 0 ? line.length() : end);
  }

  private static int number(String s, String what) throws Bad {
    try {
      return Integer.parseInt(s.strip());
    } catch (NumberFormatException e) {
      throw new Bad(what + " '" + s + "' is not a number");
    }
  }

  /**
   * Parameters as Solr logs them or as a URL's query carries them: {@code &}-joined name=value,
   * URL-encoded (raw characters that need no encoding in a log are taken as they are).
   */
  public static Map<String, List<String>> decode(String text) throws Bad {
    Map<String, List<String>> out = new LinkedHashMap<>();
    if (text.isEmpty()) {
      return out;
    }
    for (String pair : text.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      try {
        out.computeIfAbsent(
                URLDecoder.decode(name, StandardCharsets.UTF_8), k -> new ArrayList<>(1))
            .add(URLDecoder.decode(value, StandardCharsets.UTF_8));
      } catch (IllegalArgumentException e) {
        throw new Bad("bad percent-encoding in '" + abbreviate(pair) + "'");
      }
    }
    return out;
  }

  private static String unescape(String s) {
    return s.indexOf('%') < 0 && s.indexOf('+') < 0
        ? s
        : URLDecoder.decode(s, StandardCharsets.UTF_8);
  }

  /** A line of Jetty's request log (NCSA): the time it was received, the method and the URL. */
  private static Parsed jetty(String line) throws Bad {
    Matcher m = NCSA.matcher(line);
    if (!m.matches()) {
      return null;
    }
    long ms;
    try {
      ms = ZonedDateTime.parse(m.group(1), NCSA_TIME).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new Bad("time [" + m.group(1) + "] is not dd/MMM/yyyy:HH:mm:ss Z");
    }
    String target = m.group(3);
    int q = target.indexOf('?');
    String path = q < 0 ? target : target.substring(0, q);
    String params = q < 0 ? "" : target.substring(q + 1);
    // /solr/COLLECTION/HANDLER...: the webapp, then the collection (or core), then the handler
    String[] parts = path.split("/", 4);
    String collection = null;
    String handler = path;
    boolean admin = false;
    if (parts.length >= 3 && parts[1].equals("solr")) {
      if (parts[2].equals("admin")) {
        admin = true;
        handler = path.substring(5);
      } else if (parts.length == 4) {
        collection = URLDecoder.decode(parts[2], StandardCharsets.UTF_8);
        handler = "/" + parts[3];
      }
    }
    return new Parsed(
        Kind.JETTY,
        ms,
        ms,
        collection,
        handler,
        params,
        null,
        Integer.parseInt(m.group(4)),
        null,
        m.group(2),
        admin);
  }

  static String abbreviate(String s) {
    return s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }
}
