package org.solrscale.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What a node's command line says that matters when reading its figures: the java it ran, its heap,
 * its garbage collector and the flags a user chose or that change behaviour (-XX options, -D
 * settings other than the paths and addresses solrscale sets for every node).
 */
record JvmFlags(String java, String heap, String gc, List<String> notable) {
  /** -D settings every node gets from solrscale (paths, ports, addresses): not worth a column. */
  private static final Set<String> ROUTINE =
      Set.of(
          "jetty.host",
          "jetty.port",
          "host",
          "zkHost",
          "solr.solr.home",
          "solr.log.dir",
          "solrscale.log.dir",
          "log4j2.configurationFile",
          "java.io.tmpdir",
          "solrscale.cluster",
          "solrscale.node.id",
          "solrscale.node",
          "zookeeper.jmx.log4j.disable",
          "user.timezone");

  static JvmFlags of(List<String> args) {
    String java = args.isEmpty() ? "" : args.get(0);
    String xms = null;
    String xmx = null;
    String gc = null;
    List<String> notable = new ArrayList<>();
    for (int i = 1; i < args.size(); i++) {
      String a = args.get(i);
      if (a.equals("-cp") || a.equals("-classpath")) {
        i++;
      } else if (a.startsWith("-Xmx")) {
        xmx = a.substring(4);
      } else if (a.startsWith("-Xms")) {
        xms = a.substring(4);
      } else if (a.matches("-XX:\\+Use\\w+GC")) {
        gc = a.substring(8, a.length() - 2); // -XX:+UseG1GC: G1
      } else if (a.startsWith("-XX:ErrorFile") || a.startsWith("-Xlog:")) {
        continue; // paths of log files
      } else if (a.startsWith("-D")) {
        String key = a.substring(2, a.indexOf('=') < 0 ? a.length() : a.indexOf('='));
        if (!ROUTINE.contains(key)) {
          notable.add(a);
        }
      } else if (a.startsWith("-X") || a.equals("-server")) {
        notable.add(a);
      } else if (!a.startsWith("-")) {
        break; // the main class: what follows are its arguments
      }
    }
    String heap =
        xmx == null ? "JVM default" : xms == null || xms.equals(xmx) ? xmx : xms + " to " + xmx;
    return new JvmFlags(java, heap, gc == null ? "JVM default" : gc, notable);
  }
}
