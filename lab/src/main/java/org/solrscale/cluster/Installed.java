package org.solrscale.cluster;

/**
 * Where a node's java, runtime jars (a directory) and node jar are on the host it runs on, and its
 * class-data archive's directory there (null: the node starts without one).
 */
record Installed(String java, String runtimeDir, String nodeJar, String archiveDir) {}
