package org.solrscale.cluster;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Builds the java command line of a ZooKeeper server or a Solr node, with production defaults. */
final class NodeCommand {
  static final String ZK_MAIN = "org.apache.zookeeper.server.quorum.QuorumPeerMain";

  private NodeCommand() {}

  /** A ZooKeeper server's command with {@code java} and {@code classpath} as its host has them. */
  static List<String> zk(
      String java,
      String classpath,
      List<String> archive,
      ClusterState cluster,
      NodeState node,
      Path dir) {
    List<String> cmd = new ArrayList<>();
    cmd.add(java);
    cmd.add("-Xms" + node.heap());
    cmd.add("-Xmx" + node.heap());
    cmd.add("-XX:+UseG1GC");
    cmd.add("-XX:+CrashOnOutOfMemoryError");
    cmd.add(
        "-Xlog:gc*:file="
            + dir.resolve("logs/zookeeper_gc.log")
            + ":time,uptime:filecount=5,filesize=10M");
    cmd.add(HostOps.marker(cluster.name(), node.id()));
    cmd.add("-Dsolrscale.log.dir=" + dir.resolve("logs"));
    cmd.add("-Dlog4j2.configurationFile=" + dir.resolve("log4j2.xml").toUri());
    cmd.add("-Dzookeeper.jmx.log4j.disable=true");
    cmd.add("-Duser.timezone=UTC"); // as Solr's: both logs' times compare, across hosts too
    cmd.addAll(archive);
    cmd.addAll(extraOptions());
    cmd.add("-cp");
    cmd.add(classpath);
    cmd.add(ZK_MAIN);
    cmd.add(dir.resolve("zoo.cfg").toString());
    return cmd;
  }

  /**
   * JVM options for every ZooKeeper server and Solr node this machine starts, after all others so
   * that they win: {@code SOLRSCALE_NODE_JAVA_OPTS} (or the system property {@code
   * solrscale.node.java.opts}), split at white space. Not part of the spec: it is how this machine
   * runs nodes, not the cluster's shape (the test suite runs every node with {@code
   * -XX:TieredStopAtLevel=1}, as Solr's own tests do, since a node then starts on half the CPU).
   */
  static List<String> extraOptions() {
    String opts =
        System.getProperty("solrscale.node.java.opts", System.getenv("SOLRSCALE_NODE_JAVA_OPTS"));
    if (opts == null || opts.isBlank()) {
      return List.of();
    }
    return List.of(opts.strip().split("\\s+"));
  }

  /** The environment variable that carries the TLS stores' password to a node. */
  static final String TLS_PASSWORD_ENV = "SOLRSCALE_TLS_STORE_PASSWORD";

  /** A Solr node's command with {@code java} and {@code classpath} as its host has them. */
  static List<String> solr(
      String java,
      String classpath,
      List<String> archive,
      String mainClass,
      ClusterState cluster,
      NodeState node,
      Path dir) {
    Path logs = dir.resolve("logs");
    List<String> cmd = new ArrayList<>();
    cmd.add(java);
    cmd.add("-server");
    cmd.add("-Xms" + node.heap());
    cmd.add("-Xmx" + node.heap());
    // bin/solr's GC_TUNE and memory settings
    cmd.add("-XX:+UseG1GC");
    cmd.add("-XX:+PerfDisableSharedMem");
    cmd.add("-XX:+ParallelRefProcEnabled");
    cmd.add("-XX:MaxGCPauseMillis=250");
    cmd.add("-XX:+ExplicitGCInvokesConcurrent");
    cmd.add("-XX:+CrashOnOutOfMemoryError");
    cmd.add("-XX:ErrorFile=" + logs.resolve("hs_err_pid%p.log"));
    cmd.add("-Xss256k");
    cmd.add(
        "-Xlog:gc*:file=" + logs.resolve("solr_gc.log") + ":time,uptime:filecount=9,filesize=20M");
    cmd.add(HostOps.marker(cluster.name(), node.id()));
    cmd.add("-Djetty.host=" + node.host());
    cmd.add("-Djetty.port=" + node.port());
    cmd.add("-Dhost=" + node.host());
    cmd.add("-DzkHost=" + cluster.zkHost());
    cmd.add("-Dsolr.solr.home=" + dir.resolve("home"));
    cmd.add("-Dsolr.log.dir=" + logs);
    cmd.add("-Dsolrscale.log.dir=" + logs);
    cmd.add("-Dlog4j2.configurationFile=" + dir.resolve("log4j2.xml").toUri());
    cmd.add("-Djava.io.tmpdir=" + dir.resolve("tmp"));
    cmd.add("-Duser.timezone=UTC");
    cmd.add("-Dsolrscale.cluster=" + cluster.name());
    cmd.add("-Dsolrscale.node.id=" + node.id());
    if (cluster.spec().tls()) {
      // the stores' paths only: their password comes through the environment
      Path tls = dir.getParent().resolve("tls");
      cmd.add("-Dsolrscale.tls.keystore=" + tls.resolve("node.p12"));
      cmd.add("-Dsolrscale.tls.truststore=" + tls.resolve("truststore.p12"));
    }
    for (Map.Entry<String, String> label : node.labels().entrySet()) {
      // exposed to Solr as node.sysprop:sysprop.<label> for shards.preference and placement
      cmd.add("-D" + label.getKey() + "=" + label.getValue());
    }
    cmd.addAll(archive); // the class-data archive's option, or none
    cmd.addAll(cluster.spec().jvmArgs());
    cmd.addAll(extraOptions());
    cmd.add("-cp");
    cmd.add(classpath);
    cmd.add(mainClass);
    return cmd;
  }
}
