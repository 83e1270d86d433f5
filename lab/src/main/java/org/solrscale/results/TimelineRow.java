package org.solrscale.results;

/** One row of a bench step's timeline.csv: one second of warm-up or measurement. */
public record TimelineRow(double second, boolean warmup, long requests, long errors, double qps,
    double latencyP50Ms, double latencyP99Ms, double latencyMaxMs, double serviceP50Ms,
    double serviceP99Ms, long bytes) {}
