package org.solrscale.diagnose;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
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
import org.solrscale.results.LinkProbe;
import org.solrscale.results.RunDir;
import org.solrscale.spec.SolrscaleException;

/**
 * Reads the live facts of a SolrCloud (ZooKeeper's conf and mntr with measured round trips, the
 * cluster's state and properties, each collection's config through the Config API, each node's
 * system info, properties and index size; for a cluster solrscale started on this machine also its
 * processes' limits and GC logs) and runs {@link DoctorChecks} on them. Before reading, it samples
 * a short window of its own ({@link DoctorWindow}) for CPU, GC and update rates.
 */
public final class Doctor {
  private static final Duration TIMEOUT = Duration.ofSeconds(15);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int ROUND_TRIPS = 5;

  /** The doctor's default window: long enough to see steady load, short enough to wait for. */
  public static final Duration WINDOW = Duration.ofSeconds(3);

  private final SolrHttp http;
  private final List<String> urls;
  private final String zkHost;
  private final Cluster local;
  private final String target;
  private final Duration window;

  /**
   * @param urls base URLs of some of the cluster's Solr nodes (the live ones are found from them)
   * @param zkHost the ZooKeeper connect string, or null to take it from a node's system info
   * @param local the cluster when solrscale started it (for its layout, limits and GC logs)
   * @param window how long to sample CPU, GC and update rates; zero for none (then the 1-minute
   *     load average and Solr's 1-minute update rate stand in, and the findings say so)
   */
  public Doctor(
      String target,
      List<String> urls,
      String zkHost,
      Access access,
      Cluster local,
      Duration window) {
    this.target = target;
    this.window = window;
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
    // the cluster's state from the first node that can read it: when ZooKeeper is in trouble a
    // node cut off from it cannot, and that is when the doctor is most needed
    JsonNode status = null;
    String unread = null;
    for (String u : urls) {
      SolrHttp.Reply r = http.get(u + "/admin/collections?action=CLUSTERSTATUS&wt=json", TIMEOUT);
      if (r.status() == 200 && r.body() != null) {
        status = r.body();
        break;
      }
      unread = unread != null ? unread : u + ": " + r.message();
    }
    if (status == null) {
      return zooKeeperAlone(unread);
    }
    JsonNode cluster = status.path("cluster");
    List<String> live = new ArrayList<>();
    cluster.path("live_nodes").forEach(n -> live.add(n.asText()));
    if (live.isEmpty()) {
      throw SolrscaleException.environment(target + " has no live Solr node");
    }
    String scheme = urls.get(0).startsWith("https") ? "https" : "http";
    // sampled first, so that the doctor's own reading below is not in the window
    Map<String, DoctorWindow.Rates> rates = sample(live, scheme);
    List<DoctorFacts.Node> nodes =
        Parallel.map(live, n -> node(n, baseUrl(scheme, n), rates.get(n)));
    JsonNode system = get(baseUrl(scheme, live.get(0)) + "/admin/info/system?wt=json");
    String version = system.path("lucene").path("solr-spec-version").asText(null);
    String zk = zkHost != null ? zkHost : system.path("zkHost").asText(null);
    List<DoctorFacts.Zk> zks = zk == null ? List.of() : Parallel.map(servers(zk), this::zk);
    zks = withPeerRoundTrips(zks);
    // read once for all collections: update rates per core, the first node's properties
    String first = baseUrl(scheme, live.get(0));
    Map<String, Double> updates =
        rates.isEmpty() ? oneMinuteUpdateRates(live, scheme) : new LinkedHashMap<>();
    rates.values().forEach(r -> updates.putAll(r.updatesPerSecond()));
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
    return new DoctorFacts(
        layout(),
        rates.isEmpty() ? null : window.toMillis() / 1000.0,
        version,
        zks,
        nodes,
        collections,
        clusterProps);
  }

  /**
   * No node could read the cluster's state: ZooKeeper's facts alone, which are what explains it,
   * and the nodes' failure as a fact of its own (the doctor's error "cluster-state").
   */
  private DoctorFacts zooKeeperAlone(String unread) {
    String zk = zkHost != null ? zkHost : local != null ? local.requireState().zkHost() : null;
    if (zk == null || zk.isBlank()) {
      throw SolrscaleException.environment(
          "no Solr node of " + target + " answers its cluster status (" + unread + ")");
    }
    List<DoctorFacts.Zk> zks = withPeerRoundTrips(Parallel.map(servers(zk), this::zk));
    return new DoctorFacts(
        layout(),
        null,
        null,
        zks,
        List.of(),
        List.of(),
        Map.of(),
        (urls.size() == 1 ? "the node asked" : "none of the " + urls.size() + " nodes asked")
            + " answers its cluster status; first "
            + unread);
  }

  private DoctorFacts.Layout layout() {
    if (local == null) {
      return DoctorFacts.Layout.EXTERNAL;
    }
    boolean here = local.requireState().nodes().stream().noneMatch(NodeState::remote);
    return here ? DoctorFacts.Layout.ONE_MACHINE : DoctorFacts.Layout.HOSTS;
  }

  /**
   * Each live node's counters read twice, the window apart, and this machine's CPU over it (empty
   * when the window is zero or no node answers the metrics).
   */
  private Map<String, DoctorWindow.Rates> sample(List<String> live, String scheme) {
    Map<String, DoctorWindow.Rates> out = new LinkedHashMap<>();
    if (window.isZero() || window.isNegative()) {
      return out;
    }
    DoctorWindow.CpuTimes cpu0 = DoctorWindow.CpuTimes.read();
    List<DoctorWindow.Counters> before = Parallel.map(live, n -> counters(baseUrl(scheme, n)));
    try {
      Thread.sleep(window.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrscaleException.environment("interrupted while sampling " + target);
    }
    List<DoctorWindow.Counters> after = Parallel.map(live, n -> counters(baseUrl(scheme, n)));
    Double busy = DoctorWindow.busyPercent(cpu0, DoctorWindow.CpuTimes.read());
    for (int i = 0; i < live.size(); i++) {
      if (before.get(i) != null && after.get(i) != null) {
        String n = live.get(i);
        boolean here = localNode(n) != null || local == null && onThisMachine(hostOf(n));
        out.put(n, DoctorWindow.between(before.get(i), after.get(i), here ? busy : null));
      }
    }
    return out;
  }

  private DoctorWindow.Counters counters(String base) {
    long at = System.nanoTime();
    JsonNode m =
        getOrNull(
            base
                + "/admin/metrics?wt=json&group=jvm,core&prefix="
                + URLEncoder.encode(DoctorWindow.PREFIXES, StandardCharsets.UTF_8));
    return m == null ? null : DoctorWindow.Counters.of(at, m);
  }

  /** A host of an external cluster that is this machine (its /proc/stat is the host's CPU). */
  private static boolean onThisMachine(String address) {
    try {
      InetAddress a = InetAddress.getByName(address);
      return a.isLoopbackAddress() || NetworkInterface.getByInetAddress(a) != null;
    } catch (IOException e) {
      return false;
    }
  }

  private static String hostOf(String nodeName) {
    return nodeName.substring(0, nodeName.lastIndexOf(':'));
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

  private DoctorFacts.Node node(String name, String base, DoctorWindow.Rates rates) {
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
      Path logs = local.hosts().nodeDir(mine).resolve("logs");
      gcPause =
          GcLog.read(logs, "solr_gc.log").stream().mapToDouble(GcLog.Pause::ms).max().orElse(0);
      gcLog = logs.resolve("solr_gc.log") + " (since the node started)";
    }
    return new DoctorFacts.Node(
        name,
        host(hostOf(name)),
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
        rates == null ? null : rates.window(),
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
      String name, JsonNode state, String base, JsonNode sysProps, Map<String, Double> updates) {
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

  /** Update requests per second over the collection's cores on every node. */
  private static Double updateRate(String collection, Map<String, Double> byCore) {
    return byCore.entrySet().stream()
        .filter(e -> e.getKey().startsWith("solr.core." + collection + "."))
        .mapToDouble(Map.Entry::getValue)
        .sum();
  }

  /** Without a window: Solr's own 1-minute update rate of each core, on every node. */
  private Map<String, Double> oneMinuteUpdateRates(List<String> live, String scheme) {
    Map<String, Double> out = new LinkedHashMap<>();
    for (JsonNode m :
        Parallel.map(
            live,
            n ->
                getOrNull(
                    baseUrl(scheme, n)
                        + "/admin/metrics?wt=json&group=core&prefix="
                        + URLEncoder.encode(
                            "UPDATE./update.requestTimes", StandardCharsets.UTF_8)))) {
      if (m != null) {
        m.path("metrics")
            .fields()
            .forEachRemaining(
                core ->
                    out.put(
                        core.getKey(),
                        core.getValue()
                            .path("UPDATE./update.requestTimes")
                            .path("1minRate")
                            .asDouble(0)));
      }
    }
    return out;
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

  /**
   * For an ensemble solrscale started on hosts: the round trips between its servers, measured on
   * each server's host by TCP connects to the others' client ports (solrscale's net-probe run
   * there): the path a follower syncs over, which this machine's own round trips do not see (a WAN
   * between data centres, a slow link).
   */
  private List<DoctorFacts.Zk> withPeerRoundTrips(List<DoctorFacts.Zk> zks) {
    if (local == null || zks.size() < 2) {
      return zks;
    }
    List<NodeState> servers =
        local.requireState().zkNodes().stream().filter(NodeState::remote).toList();
    if (servers.size() < 2) {
      return zks;
    }
    List<Map<String, Double>> measured =
        Parallel.map(
            servers,
            n -> {
              Map<String, Double> out = new LinkedHashMap<>();
              for (NodeState m : servers) {
                if (m == n) {
                  continue;
                }
                Double ms = peerRoundTrip(n, m);
                if (ms != null) {
                  out.put(m.host() + ":" + m.port(), ms);
                }
              }
              return out;
            });
    List<DoctorFacts.Zk> out = new ArrayList<>();
    for (DoctorFacts.Zk z : zks) {
      Map<String, Double> peers = null;
      for (int i = 0; i < servers.size(); i++) {
        if (z.address().equals(servers.get(i).host() + ":" + servers.get(i).port())) {
          peers = measured.get(i).isEmpty() ? null : measured.get(i);
        }
      }
      out.add(
          new DoctorFacts.Zk(z.address(), z.host(), z.conf(), z.mntr(), z.roundTripMs(), peers));
    }
    return out;
  }

  /** The median TCP connect from {@code from}'s host to {@code to}'s client port, or null. */
  private Double peerRoundTrip(NodeState from, NodeState to) {
    List<String> cmd =
        local
            .hosts()
            .solrscaleCommand(
                from,
                List.of(
                    "net-probe",
                    "--address",
                    to.host(),
                    "--tcp-port",
                    Integer.toString(to.port()),
                    "--seconds",
                    "1",
                    "--from",
                    from.ssh()));
    try {
      Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String outText = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS) || p.exitValue() != 0) {
        p.destroyForcibly();
        return null;
      }
      LinkProbe probe =
          RunDir.JSON.readValue(
              outText.strip().lines().reduce((a, b) -> b).orElse("{}"), LinkProbe.class);
      return probe.connectMsP50();
    } catch (java.io.IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private DoctorFacts.Zk zk(String address) {
    String host = address.substring(0, address.lastIndexOf(':'));
    int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    // a word outside the whitelist is answered with a sentence, not pairs: unreadable as well
    Map<String, String> conf =
        FourLetterWords.ask(host, port, "conf", 3000)
            .map(t -> FourLetterWords.pairs(t, "="))
            .filter(m -> !m.isEmpty())
            .orElse(null);
    Map<String, String> mntr =
        FourLetterWords.ask(host, port, "mntr", 3000)
            .map(t -> FourLetterWords.pairs(t, "\t"))
            .filter(m -> !m.isEmpty())
            .orElse(null);
    // any reply counts: ruok outside the whitelist still makes the round trip
    List<Double> rtt = new ArrayList<>();
    for (int i = 0; i < ROUND_TRIPS; i++) {
      long t0 = System.nanoTime();
      if (FourLetterWords.ask(host, port, "ruok", 3000).isPresent()) {
        rtt.add(Math.round((System.nanoTime() - t0) / 1e4) / 100.0);
      }
    }
    return new DoctorFacts.Zk(address, host(host), conf, mntr, rtt);
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
