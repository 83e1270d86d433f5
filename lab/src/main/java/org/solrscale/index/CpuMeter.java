package org.solrscale.index;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.net.InetAddress;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.apache.solr.client.solrj.request.GenericSolrRequest;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.solrscale.cluster.Access;
import org.solrscale.results.IndexResult.Cpu;

/**
 * CPU time of this process and of each Solr node (the metrics API's {@code os.processCpuTime}),
 * taken before and after a load, so {@code index} can say which side did the work: on a machine
 * where both share the cores, the client's share is what a faster client can win back. It asks
 * through the Solr client the load uses: a second HTTP client would add its start-up (about 0.3 s
 * of CPU) to every {@code index} run.
 */
public final class CpuMeter {
  private final Http2SolrClient http;
  private final Access access;
  private final List<String> baseUrls;

  /** What was read at one moment: this process's CPU and each node's, in nanoseconds. */
  public record Reading(long clientNanos, Map<String, Long> nodeNanos) {}

  public CpuMeter(Http2SolrClient http, Access access, List<String> baseUrls) {
    this.access = access;
    this.http = http;
    this.baseUrls = List.copyOf(baseUrls);
  }

  public Reading read() {
    Map<String, Long> nodes = new LinkedHashMap<>();
    for (String u : baseUrls) {
      Long n = nodeNanos(u);
      if (n != null) {
        nodes.put(u, n);
      }
    }
    return new Reading(clientNanos(), nodes);
  }

  /**
   * From {@code a} to {@code b}, {@code wallSeconds} apart. {@code cores_busy} is given only when
   * every node runs on this machine (loopback URLs): then client and Solr share its cores.
   */
  public Cpu between(Reading a, Reading b, double wallSeconds) {
    double client = Math.max(0, b.clientNanos() - a.clientNanos()) / 1e9;
    Map<String, Double> solr = new LinkedHashMap<>();
    a.nodeNanos()
        .forEach(
            (u, before) -> {
              Long after = b.nodeNanos().get(u);
              if (after != null) {
                solr.put(u, Math.max(0, after - before) / 1e9);
              }
            });
    double total = client + solr.values().stream().mapToDouble(Double::doubleValue).sum();
    boolean local =
        !solr.isEmpty()
            && solr.size() == baseUrls.size()
            && baseUrls.stream().allMatch(CpuMeter::loopback);
    int cores = Runtime.getRuntime().availableProcessors();
    return new Cpu(
        client,
        solr,
        total > 0 ? client / total : 0,
        local && wallSeconds > 0 ? total / wallSeconds : null,
        cores);
  }

  private static long clientNanos() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
  }

  private Long nodeNanos(String baseUrl) {
    ModifiableSolrParams p = new ModifiableSolrParams();
    p.set("group", "jvm");
    p.set("prefix", "os.processCpuTime");
    // shares the load's connections, with short limits: a hung node must not hold up the load
    Http2SolrClient.Builder b =
        access.applyCredentials(new Http2SolrClient.Builder(baseUrl).withHttpClient(http));
    b.withRequestTimeout(5, TimeUnit.SECONDS);
    b.withIdleTimeout(5, TimeUnit.SECONDS);
    try (Http2SolrClient node = b.build()) {
      Object v =
          node.request(new GenericSolrRequest(SolrRequest.METHOD.GET, "/admin/metrics", p))
              .findRecursive("metrics", "solr.jvm", "os.processCpuTime");
      return v instanceof Number n ? n.longValue() : null;
    } catch (SolrServerException | IOException | RuntimeException e) {
      return null; // no figure for this node; the load itself is unaffected
    }
  }

  private static boolean loopback(String baseUrl) {
    try {
      return InetAddress.getByName(URI.create(baseUrl).getHost()).isLoopbackAddress();
    } catch (IOException | IllegalArgumentException e) {
      return false;
    }
  }
}
