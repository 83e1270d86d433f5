package org.solrscale.results;

/**
 * One row of a bench step's timeline.csv: one interval (a second, or less at the end) of warm-up
 * or measurement. A second in which the warm-up ended has two rows with the same {@code second}:
 * the warm-up requests that finished in it and the measured ones. {@code seconds} is the
 * interval's length (1 when the file has no such column).
 */
public record TimelineRow(double second, boolean warmup, long requests, long errors, double qps,
    double latencyP50Ms, double latencyP99Ms, double latencyMaxMs, double serviceP50Ms,
    double serviceP99Ms, long bytes, double seconds) {}
