package org.solrscale.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.spec.SolrscaleException;

/** The request-log reader on lines as Solr 8 and 9 and Jetty write them, and on bad input. */
class LogRequestsTest {
  static final ZoneId UTC = ZoneOffset.UTC;

  /** Solr 9.10's line, as a node of a test cluster wrote it. */
  static final String SOLR9 =
      "2026-11-29 05:52:30.613 INFO  (solr-jetty-18-127.0.0.1-97) [c:docs s:shard2 r:core_node2"
          + " x:docs_shard2_replica_n1] o.a.s.c.S.Request webapp=/solr path=/select"
          + " params={q=body_t:befi&sort=price_d+desc&rows=10&wt=json} rid=127.0.0.1-97 hits=164"
          + " status=0 QTime=239";

  /** A shard sub-request of the same request, logged by the node that answered it. */
  static final String SUB =
      "2026-11-29 05:52:30.190 INFO  (solr-jetty-18-127.0.0.1-41) [c:docs s:shard2 r:core_node2"
          + " x:docs_shard2_replica_n1] o.a.s.c.S.Request webapp=/solr path=/select"
          + " params={df=text&distrib=false&fl=id&shards.purpose=4&rid=127.0.0.1-41&q=*:*"
          + "&NOW=1795931549992&isShard=true&wt=javabin} hits=10022 status=0 QTime=1";

  /** Solr 8's line (the issue's), with the core before webapp=. */
  static final String SOLR8 =
      "2019-12-09 15:05:11.931 INFO  (qtp2103763750-21) [c:logs4 s:shard1 r:core_node2"
          + " x:logs4_shard1_replica_n1] o.a.s.c.S.Request [logs4_shard1_replica_n1] "
          + " webapp=/solr path=/select params={q=*:*&_=1575835181759&wt=json} hits=234868"
          + " status=0 QTime=8";

  static final String UPDATE =
      "2026-11-29 05:52:05.449 INFO  (solr-jetty-22-127.0.0.1-51) [c:docs s:shard2 r:core_node2"
          + " x:docs_shard2_replica_n1] o.a.s.u.p.LogUpdateProcessorFactory webapp=/solr"
          + " path=/update params={commit=true&wt=javabin&version=2}{add=[doc-2 (188), doc-8"
          + " (189)]} 0 126";

  @TempDir Path dir;

  @Test
  void readsSolr9Line() throws Exception {
    RequestLogLine.Parsed p = RequestLogLine.parse(SOLR9, UTC);
    assertThat(p.kind()).isEqualTo(RequestLogLine.Kind.REQUEST);
    assertThat(p.collection()).isEqualTo("docs");
    assertThat(p.handler()).isEqualTo("/select");
    assertThat(p.params())
        .containsExactly(
            Map.entry("q", List.of("body_t:befi")),
            Map.entry("sort", List.of("price_d desc")),
            Map.entry("rows", List.of("10")),
            Map.entry("wt", List.of("json")));
    assertThat(p.hits()).isEqualTo(164L);
    assertThat(p.status()).isZero();
    assertThat(p.qtime()).isEqualTo(239);
    long end = java.time.Instant.parse("2026-11-29T05:52:30.613Z").toEpochMilli();
    assertThat(p.logMs()).isEqualTo(end);
    assertThat(p.startMs()).isEqualTo(end - 239); // the line is written when the request ends
    assertThat(p.subRequest()).isFalse();
    assertThat(RequestLogLine.parse(SUB, UTC).subRequest()).isTrue();
  }

  @Test
  void readsSolr8LineAndTheZoneGiven() throws Exception {
    RequestLogLine.Parsed p = RequestLogLine.parse(SOLR8, ZoneId.of("Europe/Berlin"));
    assertThat(p.collection()).isEqualTo("logs4");
    assertThat(p.hits()).isEqualTo(234868L);
    assertThat(p.logMs())
        .isEqualTo(java.time.Instant.parse("2019-12-09T14:05:11.931Z").toEpochMilli());
    // Solr 8 without cloud MDC: the core before webapp= names it
    String standalone = SOLR8.replaceFirst("\\[c:[^\\]]*\\]", "[   ]");
    assertThat(RequestLogLine.parse(standalone, UTC).collection())
        .isEqualTo("logs4_shard1_replica_n1");
  }

  @Test
  void decodesWhatSolrEncodes() throws Exception {
    // Solr's partialURLEncodeVal: space as +, & % = + as %XX, control characters as %0a,
    // everything else (braces, quotes, non-ASCII) raw
    String line =
        SOLR9.replace(
            "params={q=body_t:befi&sort=price_d+desc&rows=10&wt=json}",
            "params={q={!lucene+q.op%3DAND}title:\"a+b\"+%26+c%2Bd+50%25+caf\u00e9%0aend"
                + "&fq=x:1&fq=y:2&facet.field=a_s&facet.field=b_s}");
    RequestLogLine.Parsed p = RequestLogLine.parse(line, UTC);
    assertThat(p.params().get("q"))
        .containsExactly("{!lucene q.op=AND}title:\"a b\" & c+d 50% caf\u00e9\nend");
    assertThat(p.params().get("fq")).containsExactly("x:1", "y:2");
    assertThat(p.params().get("facet.field")).containsExactly("a_s", "b_s");
  }

  @Test
  void readsUpdatesAndJetty() throws Exception {
    RequestLogLine.Parsed u = RequestLogLine.parse(UPDATE, UTC);
    assertThat(u.kind()).isEqualTo(RequestLogLine.Kind.UPDATE);
    assertThat(u.params()).containsKeys("commit");
    assertThat(u.qtime()).isEqualTo(126);
    RequestLogLine.Parsed j =
        RequestLogLine.parse(
            "127.0.0.1 - - [29/Nov/2026:05:52:30 +0100] \"GET"
                + " /solr/docs/select?q=a+b&fq=x%3A1&wt=json HTTP/1.1\" 200 1234 \"-\" \"curl\"",
            UTC);
    assertThat(j.kind()).isEqualTo(RequestLogLine.Kind.JETTY);
    assertThat(j.collection()).isEqualTo("docs");
    assertThat(j.handler()).isEqualTo("/select");
    assertThat(j.params().get("q")).containsExactly("a b");
    assertThat(j.params().get("fq")).containsExactly("x:1");
    assertThat(j.hits()).isNull();
    assertThat(j.startMs())
        .isEqualTo(java.time.Instant.parse("2026-11-29T04:52:30Z").toEpochMilli());
    assertThat(RequestLogLine.parse("2026-11-29 05:51:44.586 INFO  (main) [] o.a.s.s.X hi", UTC))
        .isNull();
  }

  @Test
  void truncatedLinesAreBadNotDropped() {
    String cut = SOLR9.substring(0, SOLR9.indexOf("&rows"));
    assertThatThrownBy(() -> RequestLogLine.parse(cut, UTC))
        .isInstanceOf(RequestLogLine.Bad.class)
        .hasMessageContaining("truncated");
    String noQTime = SOLR9.substring(0, SOLR9.indexOf(" QTime"));
    assertThatThrownBy(() -> RequestLogLine.parse(noQTime, UTC)).hasMessageContaining("no QTime");
  }

  /**
   * Two nodes' logs, one rotated and gzipped, with a stack trace between request lines: merged by
   * start time, sub-requests, updates and admin requests left out and counted, transport parameters
   * dropped.
   */
  @Test
  void mergesNodesAndRotations() throws Exception {
    Path n1 = dir.resolve("solr1/solr.log");
    Path n1old = dir.resolve("solr1/solr.log.1.gz");
    Path n2 = dir.resolve("solr2/solr.log");
    Files.createDirectories(n1.getParent());
    Files.createDirectories(n2.getParent());
    Files.write(
        n1,
        List.of(
            at(SOLR9, "05:52:30.613", 239, "q=one"),
            "2026-11-29 05:52:31.000 ERROR (x) [c:docs] o.a.s.h.RequestHandlerBase"
                + " org.apache.solr.common.SolrException: undefined field",
            "\tat org.apache.solr.schema.IndexSchema.getField(IndexSchema.java:1)",
            "\tat webapp=/solr path=/select nonsense in a trace",
            SUB,
            UPDATE,
            at(SOLR9, "05:52:33.000", 5, "q=three")));
    gzip(n1old, List.of(at(SOLR9, "05:50:00.000", 1, "q=zero")));
    Files.write(
        n2,
        List.of(
            at(SOLR9, "05:52:31.300", 1000, "q=two"), // started at 05:52:30.300: before one
            SOLR9.replace("path=/select", "path=/admin/luke")));
    Path out = dir.resolve("requests.jsonl");
    LogRequestsReport r = LogRequests.run(List.of(n1, n1old, n2), options(null, null), out);
    List<String> qs = new ArrayList<>();
    for (String line : Files.readAllLines(out)) {
      qs.add(JSON.readTree(line).path("params").path("q").get(0).asText());
    }
    assertThat(qs).containsExactly("zero", "two", "one", "three");
    assertThat(r.kept()).isEqualTo(4);
    assertThat(r.leftOut())
        .containsEntry("per-shard sub-request (isShard=true)", 1L)
        .containsEntry("update (--handler /update keeps them)", 1L)
        .containsEntry("admin or config request (--handler keeps them)", 1L);
    assertThat(r.bad()).isZero(); // a stack trace's line is no request line
    LoggedRequest first = JSON.readValue(Files.readAllLines(out).get(2), LoggedRequest.class);
    assertThat(first.params()).doesNotContainKeys("wt", "rid");
    assertThat(first.query()).isEqualTo("q=one&sort=price_d+desc&rows=10");
    assertThat(first.source()).endsWith("solr1/solr.log:1");
    // --handler /update keeps updates; --collection and the time window filter
    LogRequestsReport u =
        LogRequests.run(List.of(n1), options(java.util.Set.of("/update"), null), out);
    assertThat(u.kept()).isEqualTo(1);
    LogRequestsReport w =
        LogRequests.run(
            List.of(n1, n1old, n2),
            new LogRequests.Options(
                null,
                null,
                LogRequests.parseTime("2026-11-29 05:52:30.35", UTC, "--from"),
                LogRequests.parseTime("2026-11-29T05:52:32.99Z", UTC, "--to"),
                100,
                1,
                UTC),
            out);
    assertThat(w.kept()).isEqualTo(1);
    assertThat(w.leftOut())
        .containsEntry("before --from", 2L)
        .containsEntry("at or after --to", 1L);
  }

  @Test
  void samplesKeepTheirTimes() throws Exception {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      lines.add(at(SOLR9, String.format("05:%02d:%02d.000", 10 + i / 60, i % 60), 0, "q=n" + i));
    }
    Path log = dir.resolve("solr.log");
    Files.write(log, lines);
    Path out = dir.resolve("s.jsonl");
    LogRequestsReport r =
        LogRequests.run(
            List.of(log), new LogRequests.Options(null, null, null, null, 10, 7, UTC), out);
    assertThat(r.kept()).isBetween(60L, 140L);
    assertThat(r.kept() + r.leftOut().get("sampled out (--sample)")).isEqualTo(1000);
    for (String line : Files.readAllLines(out)) {
      LoggedRequest q = JSON.readValue(line, LoggedRequest.class);
      int i = Integer.parseInt(q.params().get("q").get(0).substring(1));
      long expected =
          java.time.Instant.parse(
                  String.format("2026-11-29T05:%02d:%02d.000Z", 10 + i / 60, i % 60))
              .toEpochMilli();
      assertThat(q.startMs()).isEqualTo(expected);
    }
  }

  @Test
  void badInputSaysWhatItIs() throws Exception {
    Path empty = Files.createFile(dir.resolve("empty.log"));
    Path out = dir.resolve("o.jsonl");
    assertThatThrownBy(() -> LogRequests.run(List.of(empty), options(null, null), out))
        .isInstanceOf(SolrscaleException.class)
        .hasMessageContaining("has a request line: give Solr's solr.log");
    Path noRequests = dir.resolve("gc.log");
    Files.write(noRequests, List.of("[0.004s][info][gc] Using G1", "nothing here"));
    assertThatThrownBy(() -> LogRequests.run(List.of(noRequests), options(null, null), out))
        .hasMessageContaining("o.a.s.c.S.Request");
    assertThat(out).doesNotExist();
    // truncated lines are counted and shown with file:line, the rest kept
    Path cut = dir.resolve("cut.log");
    Files.write(cut, List.of(SOLR9, SOLR9.substring(0, 200), SOLR9));
    LogRequestsReport r = LogRequests.run(List.of(cut), options(null, null), out);
    assertThat(r.kept()).isEqualTo(2);
    assertThat(r.bad()).isEqualTo(1);
    assertThat(r.problems().get(0)).contains("cut.log:2:").contains("truncated");
    // a Jetty log with POSTs: the GETs kept, the POSTs counted
    Path jetty = dir.resolve("2026_11_29.request.log");
    Files.write(
        jetty,
        List.of(
            "127.0.0.1 - - [29/Nov/2026:05:52:30 +0000] \"GET /solr/docs/select?q=a HTTP/1.1\" 200 9",
            "127.0.0.1 - - [29/Nov/2026:05:52:31 +0000] \"POST /solr/docs/select HTTP/1.1\" 200 9",
            "127.0.0.1 - - [29/Nov/2026:05:52:32 +0000] \"POST /solr/docs/update HTTP/1.1\" 200 9"));
    LogRequestsReport j = LogRequests.run(List.of(jetty), options(null, null), out);
    assertThat(j.kept()).isEqualTo(1);
    assertThat(j.formats()).containsExactly("jetty");
    assertThat(j.withHits()).isZero();
    assertThat(j.leftOut()).containsEntry("not a GET (Jetty logs no request body)", 2L);
  }

  /** A query file from a log keeps its order and repeats, and reads back as the same requests. */
  @Test
  void queryFileFromALog() throws Exception {
    Path log = dir.resolve("solr.log");
    String odd = "q={!lucene}title:\"caf\u00e9+%26+bar\"+100%25&fq=a:1&fq=b:2";
    Files.write(
        log,
        List.of(
            at(SOLR9, "05:52:30.613", 1, "q=a"),
            at(SOLR9, "05:52:31.613", 1, odd),
            at(SOLR9, "05:52:32.613", 1, "q=a"),
            at(SOLR9, "05:52:33.613", 1, "id=7").replace("path=/select", "path=/get")));
    Path requests = dir.resolve("r.jsonl");
    LogRequests.run(List.of(log), options(null, null), requests);
    Path file = dir.resolve("q.txt");
    LogRequests.FromLog r = LogRequests.toQueryFile(requests, file);
    assertThat(r.written()).isEqualTo(3);
    assertThat(r.distinct()).isEqualTo(2);
    assertThat(r.withoutQ()).isEqualTo(1);
    List<org.solrscale.load.QueryRequest> read = org.solrscale.load.QueryFile.read(file);
    assertThat(read).hasSize(3);
    assertThat(read.get(0).params()).isEqualTo(read.get(2).params());
    java.util.Map<String, List<String>> back = RequestLogLine.decode(read.get(1).params());
    assertThat(back.get("q")).containsExactly("{!lucene}title:\"caf\u00e9 & bar\" 100%");
    assertThat(back.get("fq")).containsExactly("a:1", "b:2");
  }

  static final ObjectMapper JSON = new ObjectMapper();

  static LogRequests.Options options(java.util.Set<String> handlers, java.util.Set<String> cs) {
    return new LogRequests.Options(cs, handlers, null, null, 100, 1, UTC);
  }

  /** The Solr 9 line at {@code time} with this QTime and these parameters. */
  static String at(String line, String time, int qtime, String params) {
    return line.replace("05:52:30.613", time)
        .replace("QTime=239", "QTime=" + qtime)
        .replace("q=body_t:befi", params);
  }

  static void gzip(Path file, List<String> lines) throws IOException {
    try (OutputStream os = new GZIPOutputStream(Files.newOutputStream(file))) {
      os.write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    }
  }
}
