package org.solrscale.spec;

/**
 * One kind of scenario step: its key in YAML ({@code - bench: {...}}), its record, and how a run
 * treats it: whether server telemetry is scraped while it runs, whether it runs alongside the next
 * step instead of on its own (a fault), whether {@code KIND.KEY} matrix keys may sweep it, why it
 * needs a cluster solrscale started (null when it runs on any SolrCloud), and a line of help.
 */
public record StepKind(
    String name,
    Class<? extends StepSpec> type,
    boolean scrapesTelemetry,
    boolean runsAlongside,
    boolean sweepable,
    String needsOurCluster,
    String help) {}
