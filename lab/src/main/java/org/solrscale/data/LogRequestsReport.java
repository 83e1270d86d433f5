package org.solrscale.data;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * What {@code data log-requests} read and kept: lines, request lines, requests kept, each reason a
 * request was left out, the lines that looked like requests but could not be read (the first few
 * with file:line), the requests kept per handler and per collection, and their rate over time in
 * {@code bucket_seconds} buckets from {@code first_ms}. {@code formats}: what the files were (solr,
 * jetty); a Jetty request log has no hits and no QTime.
 */
public record LogRequestsReport(
    @JsonProperty("files") int files,
    @JsonProperty("lines") long lines,
    @JsonProperty("request_lines") long requestLines,
    @JsonProperty("kept") long kept,
    @JsonProperty("left_out") Map<String, Long> leftOut,
    @JsonProperty("bad") long bad,
    @JsonProperty("problems") List<String> problems,
    @JsonProperty("by_handler") Map<String, Long> byHandler,
    @JsonProperty("by_collection") Map<String, Long> byCollection,
    @JsonProperty("formats") List<String> formats,
    @JsonProperty("first_ms") Long firstMs,
    @JsonProperty("last_ms") Long lastMs,
    @JsonProperty("bucket_seconds") long bucketSeconds,
    @JsonProperty("per_bucket") List<Long> perBucket,
    @JsonProperty("with_hits") long withHits,
    @JsonProperty("output") String output,
    @JsonProperty("seconds") double seconds) {}
