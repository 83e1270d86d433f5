package org.solrscale.cluster;

/** Where a node's java, runtime classpath and node jar are on the host it runs on. */
record Installed(String java, String classpath, String nodeJar) {}
