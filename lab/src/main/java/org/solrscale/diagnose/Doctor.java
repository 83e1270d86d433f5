package org.solrscale.diagnose;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.solrscale.cluster.Access;
import org.solrscale.cluster.Cluster;
import org.solrscale.cluster.FourLetterWords;
import org.solrscale.cluster.NodeState;
import org.solrscale.cluster.Parallel;
import org.solrscale.cluster.SolrHttp;
import org.solrscale.results.DoctorReport;
import org.solrscale.spec.SolrscaleException;

/**
 * Reads the live facts of a SolrCloud (ZooKeeper's conf and mntr with measured round trips, the
 * cluster's state and properties, each collection's config through the Config API, each node's
 * system info, properties and index size; for a cluster solrscale started on this machine also its
 * processes' limits and GC logs) and runs {@link DoctorChecks} on them.
 */
public final class Doctor {
  private static final Duration TIMEOUT = Duration.ofSeconds(15);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int ROUND_TRIPS = 5;

  private final SolrHttp http;
  private final List<String> urls;
  private final String zkHost;
  private final Cluster local;
  private final String target;

  /**
   * @param urls base URLs of some of the cluster's Solr nodes (the live ones are found from them)
   * @param zkHost the ZooKeeper connect string, or null to take it from a node's system info
   * @param local the cluster when solrscale started it on this machine (for limits and GC logs)
   */
  public Doctor(String target, List<String> urls, String zkHost, Access access, Cluster local) {
    this.target = target;
    this.urls = List.copyOf(urls);
    this.zkHost = zkHost;
    this.local = local;
    this.http = new SolrHttp(access);
  }

  /** Reads the facts and checks them. */
  public DoctorReport examine() {
    DoctorFacts facts = facts();
    return new DoctorReport(
        target, facts.solrVersion(), DoctorChecks.of(facts), JSON.valueToTree(facts));
  }

  DoctorFacts facts() {
    JsonNode status = get(urls.get(0) + "/admin/collections?action=CLUSTERSTATUS&wt=json");
    JsonNode cluster = status.path("cluster");
    List<String> live = new ArrayList<>();
    cluster.path("live_nodes").forEach(n -> live.add(n.asText()));
    if (live.isEmpty()) {
      throw SolrscaleException.environment(target + " has no live Solr node");
    }
    String scheme = urls.get(0).startsWith("https") ? "https" : "http";
    List<DoctorFacts.Node> nodes = Parallel.map(live, n -> node(n, baseUrl(scheme, n)));
    JsonNode system = get(baseUrl(scheme, live.get(0)) + "/admin/info/system?wt=json");
    String version = system.path("lucene").path("solr-spec-version").asText(null);
    String zk = zkHost != null ? zkHost : system.path("zkHost").asText(null);
    List<DoctorFacts.Zk> zks = zk == null ? List.of() : Parallel.map(servers(zk), this::zk);
    // read once for all collections: each node's update metrics, the first node's properties
    String first = baseUrl(scheme, live.get(0));
    List<JsonNode> updates =
        Parallel.map(
            live,
            n ->
                getOrNull(
                    baseUrl(scheme, n)
                        + "/admin/metrics?wt=json&group=core&prefix="
                        + URLEncoder.encode(
                            "UPDATE./update.requestTimes", StandardCharsets.UTF_8)));
    JsonNode props = getOrNull(first + "/admin/info/properties?wt=json");
    JsonNode sysProps = props == null ? null : props.path("system.properties");
    List<DoctorFacts.Collection> collections = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = cluster.path("collections").fields();
        it.hasNext(); ) {
      Map.Entry<String, JsonNode> c = it.next();
      collections.add(collection(c.getKey(), c.getValue(), first, sysProps, updates));
    }
    Map<String, String> clusterProps = new LinkedHashMap<>();
    cluster
        .path("properties")
        .fields()
        .forEachRemaining(e -> clusterProps.put(e.getKey(), e.getValue().asText()));
    return new DoctorFacts(version, zks, nodes, collections, clusterProps);
  }

  private static String baseUrl(String scheme, String nodeName) {
    int u = nodeName.lastIndexOf('_');
    return scheme + "://" + nodeName.substring(0, u) + "/" + nodeName.substring(u + 1);
  }

  private JsonNode get(String url) {
    SolrHttp.Reply r = http.get(url, TIMEOUT);
    if (r.status() != 200 || r.body() == null) {
      throw SolrscaleException.environment("cannot read " + url + ": " + r.message());
    }
    return r.body();
  }

  private JsonNode getOrNull(String url) {
    SolrHttp.Reply r = http.get(url, TIMEOUT);
    return r.status() == 200 ? r.body() : null;
  }

  private DoctorFacts.Node node(String name, String base) {
    JsonNode sys = get(base + "/admin/info/system?wt=json");
    JsonNode props = getOrNull(base + "/admin/info/properties?wt=json");
    JsonNode sp = props == null ? null : props.path("system.properties");
    JsonNode metrics =
        getOrNull(
            base
                + "/admin/metrics?wt=json&group=core&prefix="
                + URLEncoder.encode("INDEX.sizeInBytes", StandardCharsets.UTF_8));
    long index = 0;
    if (metrics != null) {
      for (JsonNode core : metrics.path("metrics")) {
        index += core.path("INDEX.sizeInBytes").asLong(0);
      }
    }
    Map<String, String> labels = new LinkedHashMap<>();
    for (String l : List.of("dc", "rack")) {
      if (sp != null && sp.hasNonNull(l)) {
        labels.put(l, sp.get(l).asText());
      }
    }
    JsonNode s = sys.path("system");
    Long maxFiles = longOrNull(s, "maxFileDescriptorCount");
    Long maxProcs = null;
    Double gcPause = null;
    String gcLog = null;
    NodeState mine = localNode(name);
    if (mine != null) {
      Map<String, Long> limits = limitsOf(mine.pid());
      maxFiles = limits.getOrDefault("Max open files", maxFiles);
      maxProcs = limits.get("Max processes");
      Path logs = local.nodeDir(mine).resolve("logs");
      gcPause =
          GcLog.read(logs, "solr_gc.log").stream().mapToDouble(GcLog.Pause::ms).max().orElse(0);
      gcLog = logs.resolve("solr_gc.log") + " (since the node started)";
    }
    return new DoctorFacts.Node(
        name,
        host(name.substring(0, name.lastIndexOf(':'))),
        longOrNull(sys.path("jvm").path("memory").path("raw"), "max"),
        longOrNull(s, "totalPhysicalMemorySize"),
        longOrNull(s, "freePhysicalMemorySize"),
        longOrNull(s, "totalSwapSpaceSize"),
        longOrNull(s, "freeSwapSpaceSize"),
        maxFiles,
        maxProcs,
        index,
        sp == null || !sp.hasNonNull("zkClientTimeout") ? null : sp.get("zkClientTimeout").asLong(),
        labels,
        s.hasNonNull("availableProcessors")
            ? s.get("availableProcessors").asInt()
            : sys.path("jvm").path("processors").asInt(0),
        s.hasNonNull("systemLoadAverage") ? s.get("systemLoadAverage").asDouble() : null,
        gcPause,
        gcLog);
  }

  private static Long longOrNull(JsonNode n, String field) {
    return n.hasNonNull(field) && n.get(field).canConvertToLong() ? n.get(field).asLong() : null;
  }

  /** The node of the cluster solrscale started here that Solr calls {@code name}, if any. */
  private NodeState localNode(String name) {
    if (local == null) {
      return null;
    }
    return local.requireState().nodes().stream()
        .filter(n -> n.isSolr() && !n.remote() && n.solrNodeName().equals(name))
        .findFirst()
        .orElse(null);
  }

  /** The soft limits of a process of ours, from /proc/PID/limits (name -> value). */
  public static Map<String, Long> limitsOf(long pid) {
    Map<String, Long> out = new LinkedHashMap<>();
    try {
      for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/limits"))) {
        String[] p = line.split("\\s{2,}");
        if (p.length >= 2 && p[1].matches("[0-9]+")) {
          out.put(p[0].strip(), Long.parseLong(p[1]));
        }
      }
    } catch (IOException e) {
      // gone meanwhile: the limits come from Solr's own system info instead
    }
    return out;
  }

  private DoctorFacts.Collection collection(
      String name, JsonNode state, String base, JsonNode sysProps, List<JsonNode> updates) {
    JsonNode config = getOrNull(base + "/" + name + "/config?wt=json");
    JsonNode uh = config == null ? null : config.path("config").path("updateHandler");
    Map<String, String> autowarm = new LinkedHashMap<>();
    if (config != null) {
      JsonNode q = config.path("config").path("query");
      for (String cache : List.of("filterCache", "queryResultCache", "documentCache")) {
        if (q.path(cache).hasNonNull("autowarmCount")) {
          autowarm.put(cache, q.path(cache).get("autowarmCount").asText());
        }
      }
    }
    List<DoctorFacts.Shard> shards = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = state.path("shards").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> s = it.next();
      List<DoctorFacts.Replica> replicas = new ArrayList<>();
      for (JsonNode r : s.getValue().path("replicas")) {
        replicas.add(
            new DoctorFacts.Replica(
                r.path("node_name").asText(),
                r.path("leader").asText("false").equals("true"),
                r.path("type").asText("NRT")));
      }
      shards.add(new DoctorFacts.Shard(s.getKey(), replicas));
    }
    return new DoctorFacts.Collection(
        name,
        uh == null ? null : longOrNull(uh.path("autoCommit"), "maxTime"),
        uh == null || !uh.path("autoCommit").hasNonNull("openSearcher")
            ? null
            : uh.path("autoCommit").get("openSearcher").asBoolean(),
        uh == null ? null : longOrNull(uh.path("autoSoftCommit"), "maxTime"),
        versionBuckets(name, state, base, sysProps),
        autowarm,
        updateRate(name, updates),
        shards);
  }

  private static final java.util.regex.Pattern BUCKETS =
      java.util.regex.Pattern.compile("<int name=\"numVersionBuckets\">\\s*([^<]+?)\\s*</int>");
  private static final java.util.regex.Pattern PLACEHOLDER =
      java.util.regex.Pattern.compile("\\$\\{([^:}]+)(?::([^}]*))?}");

  /**
   * numVersionBuckets as the collection's cores see it (the Config API does not show the update
   * log): the configset's solrconfig.xml, its ${NAME:default} resolved from the collection's
   * properties, then the node's system properties, then the default.
   */
  private Long versionBuckets(String collection, JsonNode state, String base, JsonNode sysProps) {
    SolrHttp.Reply file =
        http.get(base + "/" + collection + "/admin/file?file=solrconfig.xml", TIMEOUT);
    if (file.status() != 200) {
      return null;
    }
    java.util.regex.Matcher m = BUCKETS.matcher(file.text());
    if (!m.find()) {
      return null;
    }
    String value = m.group(1);
    java.util.regex.Matcher p = PLACEHOLDER.matcher(value);
    if (p.matches()) {
      String name = p.group(1);
      JsonNode prop = state.path("property." + name);
      if (!prop.isMissingNode()) {
        value = prop.asText();
      } else {
        JsonNode sys = sysProps == null ? null : sysProps.path(name);
        value = sys != null && !sys.isMissingNode() ? sys.asText() : p.group(2);
      }
    }
    try {
      return value == null ? null : Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Update requests per second (one-minute rate) over the collection's cores on every node. */
  private static Double updateRate(String collection, List<JsonNode> updates) {
    double rate = 0;
    for (JsonNode m : updates) {
      if (m == null) {
        continue;
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = m.path("metrics").fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> core = it.next();
        if (core.getKey().startsWith("solr.core." + collection + ".")) {
          rate += core.getValue().path("UPDATE./update.requestTimes").path("1minRate").asDouble(0);
        }
      }
    }
    return rate;
  }

  /** host:port of each server in a connect string (its chroot left out). */
  static List<String> servers(String zkHost) {
    String hosts = zkHost.contains("/") ? zkHost.substring(0, zkHost.indexOf('/')) : zkHost;
    List<String> out = new ArrayList<>();
    for (String h : hosts.split(",")) {
      if (!h.isBlank()) {
        out.add(h.contains(":") ? h.strip() : h.strip() + ":2181");
      }
    }
    return out;
  }

  private DoctorFacts.Zk zk(String address) {
    String host = address.substring(0, address.lastIndexOf(':'));
    int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    Map<String, String> conf =
        FourLetterWords.ask(host, port, "conf", 3000).map(t -> pairs(t, "=")).orElse(null);
    Map<String, String> mntr =
        FourLetterWords.ask(host, port, "mntr", 3000).map(t -> pairs(t, "\t")).orElse(null);
    List<Double> rtt = new ArrayList<>();
    for (int i = 0; i < ROUND_TRIPS; i++) {
      long t0 = System.nanoTime();
      if (FourLetterWords.ask(host, port, "ruok", 3000).isPresent()) {
        rtt.add(Math.round((System.nanoTime() - t0) / 1e4) / 100.0);
      }
    }
    return new DoctorFacts.Zk(address, host(host), conf, mntr, rtt);
  }

  private static Map<String, String> pairs(String text, String separator) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      int i = line.indexOf(separator);
      if (i > 0) {
        out.put(line.substring(0, i).strip(), line.substring(i + separator.length()).strip());
      }
    }
    return out;
  }

  /** A host by its address, so that localhost and 127.0.0.1 are one host. */
  private static String host(String name) {
    try {
      return InetAddress.getByName(name).getHostAddress();
    } catch (UnknownHostException e) {
      return name;
    }
  }
}
