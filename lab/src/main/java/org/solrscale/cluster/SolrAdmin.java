package org.solrscale.cluster;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrResponse;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.client.solrj.request.CollectionAdminRequest.RequestStatusResponse;
import org.apache.solr.client.solrj.request.ConfigSetAdminRequest;
import org.apache.solr.client.solrj.response.CollectionAdminResponse;
import org.apache.solr.client.solrj.response.RequestStatusState;
import org.apache.solr.common.util.NamedList;
import org.solrscale.spec.CollectionSpec;
import org.solrscale.spec.SolrscaleException;

/** Collections and ConfigSets API calls through SolrJ, against the live nodes of one cluster. */
public final class SolrAdmin implements Closeable {
  /** For operations that may legitimately take minutes (CREATE, REPLACENODE, ...). */
  private final CloudHttp2SolrClient client;

  /**
   * For status reads, which must stay responsive while a node is frozen (SIGSTOP or a long GC): a
   * request that reaches such a node gives up after a few seconds instead of SolrJ's 10 minutes.
   */
  private final CloudHttp2SolrClient quick;

  /**
   * CLUSTERSTATUS goes to the reachable nodes only, one after another: a cloud client would pick
   * any node in live_nodes, frozen ones included.
   */
  private final List<Http2SolrClient> direct;

  private final List<NodeState> nodes;
  private final Access access;

  public SolrAdmin(List<NodeState> solrNodes, Access access) {
    this(solrNodes, solrNodes, access);
  }

  /**
   * Talks to {@code reachable} nodes; names replicas after any of {@code known} (running or not).
   */
  public SolrAdmin(List<NodeState> reachable, List<NodeState> known, Access access) {
    List<NodeState> solrNodes = reachable;
    this.nodes = List.copyOf(known);
    this.access = access;
    List<String> urls = solrNodes.stream().map(NodeState::baseUrl).toList();
    this.client =
        new CloudHttp2SolrClient.Builder(urls)
            .withInternalClientBuilder(
                access.apply(
                    new Http2SolrClient.Builder()
                        .withConnectionTimeout(5, TimeUnit.SECONDS)
                        .withIdleTimeout(10, TimeUnit.MINUTES)))
            .build();
    this.quick =
        new CloudHttp2SolrClient.Builder(urls)
            .withInternalClientBuilder(quickBuilder(null, access))
            .build();
    Access.https(client, urls);
    Access.https(quick, urls);
    this.direct = urls.stream().map(u -> quickBuilder(u, access).build()).toList();
  }

  private static Http2SolrClient.Builder quickBuilder(String baseUrl, Access access) {
    Http2SolrClient.Builder b =
        baseUrl == null ? new Http2SolrClient.Builder() : new Http2SolrClient.Builder(baseUrl);
    return access
        .apply(b)
        .withConnectionTimeout(3, TimeUnit.SECONDS)
        .withIdleTimeout(5, TimeUnit.SECONDS)
        .withRequestTimeout(10, TimeUnit.SECONDS);
  }

  public SolrClient client() {
    return client;
  }

  /** Uploads a configset (zip of its conf directory), replacing one of the same name. */
  public void uploadConfigset(String name, byte[] zip) {
    Path tmp = null;
    try {
      tmp = Files.createTempFile("solrscale-configset", ".zip");
      Files.write(tmp, zip);
      ConfigSetAdminRequest.Upload upload =
          new ConfigSetAdminRequest.Upload()
              .setConfigSetName(name)
              .setUploadFile(tmp.toFile(), "application/zip")
              .setOverwrite(true)
              .setCleanup(true);
      upload.process(client);
    } catch (SolrServerException | IOException | RuntimeException e) {
      throw SolrscaleException.failed("uploading configset '" + name + "' failed: " + message(e));
    } finally {
      if (tmp != null) {
        tmp.toFile().delete();
      }
    }
  }

  /**
   * Creates a collection and waits until Solr says it is done. Sent asynchronously because only the
   * request status carries each failing node's reason ("Caused by: Unknown fieldType ..."): the
   * plain answer says just "Underlying core creation failed". Solr refusing it is a usage error
   * naming those reasons.
   */
  public void createCollection(CollectionSpec spec, String configName, Duration timeout) {
    CollectionAdminRequest.Create create;
    var r = spec.replicas();
    if (CollectionSpec.IMPLICIT.equals(spec.router())) {
      create =
          CollectionAdminRequest.createCollectionWithImplicitRouter(
              spec.name(),
              configName,
              String.join(",", spec.shardNames()),
              r.nrt(),
              r.tlog(),
              r.pull());
    } else {
      create =
          CollectionAdminRequest.createCollection(
              spec.name(), configName, spec.shards(), r.nrt(), r.tlog(), r.pull());
    }
    create.setWaitForFinalState(true);
    if (!spec.properties().isEmpty()) {
      java.util.Properties p = new java.util.Properties();
      p.putAll(spec.properties());
      create.setProperties(p);
    }
    String what = "creating collection '" + spec.name() + "'";
    String id = "solrscale-create-" + spec.name() + "-" + System.nanoTime();
    try {
      create.processAsync(id, client);
    } catch (SolrServerException | IOException | RuntimeException e) {
      throw SolrscaleException.failed(what + " failed: " + message(e));
    }
    try {
      RequestStatusResponse status = awaitAsync(() -> requestStatus(id, what), timeout, 250, what);
      if (status.getRequestStatus() != RequestStatusState.COMPLETED) {
        throw refused(spec.name(), status.getResponse());
      }
    } finally {
      try {
        CollectionAdminRequest.deleteAsyncId(id).process(client);
      } catch (SolrServerException | IOException | RuntimeException e) {
        // Solr keeps a finished request's status for a while; nothing to do
      }
    }
  }

  /**
   * How many "notfound" answers in a row (at 250 ms) before one is believed. Solr answers
   * REQUESTSTATUS by looking in the completed, failed and running maps and then the queue, one
   * after another: a task that moves on between two of those looks is "notfound" for that one
   * answer (seen on Solr 9.8.1, a CREATE that finished during the look).
   */
  static final int NOT_FOUND_BELIEVED_AFTER = 20;

  /**
   * Polls an asynchronous request until it completed or failed, or "notfound" was answered {@link
   * #NOT_FOUND_BELIEVED_AFTER} times in a row; returns that last status. Running too long is a
   * failure naming what was waited for.
   */
  static RequestStatusResponse awaitAsync(
      Supplier<RequestStatusResponse> poll, Duration timeout, long pollMillis, String what) {
    long deadline = System.nanoTime() + timeout.toNanos();
    int notFound = 0;
    while (true) {
      RequestStatusResponse status = poll.get();
      RequestStatusState state = status.getRequestStatus();
      notFound = state == RequestStatusState.NOT_FOUND ? notFound + 1 : 0;
      if (state == RequestStatusState.COMPLETED
          || state == RequestStatusState.FAILED
          || notFound >= NOT_FOUND_BELIEVED_AFTER) {
        return status;
      }
      if (System.nanoTime() > deadline) {
        throw SolrscaleException.failed(
            what + " did not finish within " + timeout.toSeconds() + " s");
      }
      Waits.sleep(pollMillis);
    }
  }

  /** The status of an asynchronous request, whose "failure" entries are for the caller to read. */
  private RequestStatusResponse requestStatus(String id, String what) {
    try {
      return CollectionAdminRequest.requestStatus(id).process(client);
    } catch (SolrServerException | IOException | RuntimeException e) {
      throw SolrscaleException.failed(what + " failed: " + message(e));
    }
  }

  /** Each failing node's reason for a CREATE that failed, or Solr's summary when none gave one. */
  private static SolrscaleException refused(String collection, NamedList<?> response) {
    Set<String> reasons = new LinkedHashSet<>();
    Object failure = response.get("failure");
    if (failure instanceof NamedList<?> nodes) {
      for (Map.Entry<String, ?> node : nodes) {
        Object text =
            node.getValue() instanceof NamedList<?> nl && nl.get("response") != null
                ? nl.get("response")
                : node.getValue();
        causedBy(String.valueOf(text))
            .ifPresent(r -> reasons.add(r + " (on " + node.getKey() + ")"));
      }
    }
    if (!reasons.isEmpty()) {
      return SolrscaleException.usage(
          "Solr refused collection '" + collection + "': " + String.join("; ", reasons));
    }
    Object exception = response.get("exception");
    Object msg = exception instanceof NamedList<?> nl ? nl.get("msg") : null;
    return SolrscaleException.failed(
        "creating collection '"
            + collection
            + "' failed: "
            + (msg != null ? msg : String.valueOf(response).replaceAll("\\s+", " ")));
  }

  /** The last "Caused by: ..." of a Solr error text: the root reason, without the layers above. */
  static Optional<String> causedBy(String text) {
    int at = text.lastIndexOf("Caused by: ");
    if (at < 0) {
      return Optional.empty();
    }
    String cause = text.substring(at + "Caused by: ".length()).strip();
    int nl = cause.indexOf('\n');
    return Optional.of(nl < 0 ? cause : cause.substring(0, nl).strip());
  }

  /** Removes a configset (one made for a collection that could not be created). */
  public void deleteConfigset(String name) {
    run(
        new ConfigSetAdminRequest.Delete().setConfigSetName(name),
        "deleting configset '" + name + "'");
  }

  public void deleteCollection(String name) {
    run(CollectionAdminRequest.deleteCollection(name), "deleting collection '" + name + "'");
  }

  /** Moves every replica off a node (Solr picks the targets), waiting for them to be active. */
  public void replaceNode(String sourceNode) {
    CollectionAdminRequest.ReplaceNode req =
        new CollectionAdminRequest.ReplaceNode(sourceNode, null);
    req.setWaitForFinalState(true);
    run(req, "moving replicas off " + sourceNode);
  }

  /** Asks Solr (9.3+) to even out replicas across the given nodes (v2 API). */
  public void balanceReplicas(List<String> solrNodeNames, NodeState via) {
    String body =
        "{\"nodes\":["
            + String.join(",", solrNodeNames.stream().map(n -> "\"" + n + "\"").toList())
            + "],\"waitForFinalState\":true}";
    String url = via.baseUrl().replaceFirst("/solr$", "") + "/api/cluster/replicas/balance";
    SolrHttp.Reply r =
        new SolrHttp(access).post(url, "application/json", body, Duration.ofMinutes(10));
    if (Thread.currentThread().isInterrupted()) {
      throw SolrscaleException.failed("interrupted while balancing replicas");
    }
    if (r.status() == 0) {
      throw SolrscaleException.failed("balancing replicas failed: " + r.message());
    }
    if (r.status() != 200) {
      throw SolrscaleException.failed(
          "balancing replicas failed: HTTP " + r.status() + " " + r.text().replaceAll("\\s+", " "));
    }
  }

  public List<String> configsets() {
    try {
      return new ConfigSetAdminRequest.List().process(client).getConfigSets();
    } catch (SolrServerException | IOException | RuntimeException e) {
      throw SolrscaleException.failed("listing configsets failed: " + message(e));
    }
  }

  /** CLUSTERSTATUS: live nodes and every collection's shards and replicas. */
  public LiveStatus clusterStatus() {
    CollectionAdminResponse resp = null;
    SolrscaleException last = null;
    for (Http2SolrClient node : direct) {
      try {
        resp = run(node, CollectionAdminRequest.getClusterStatus(), "CLUSTERSTATUS");
        break;
      } catch (SolrscaleException e) {
        last = e;
      }
    }
    if (resp == null) {
      throw last != null ? last : SolrscaleException.failed("CLUSTERSTATUS: no Solr node to ask");
    }
    return parse(resp.getResponse(), this::nodeId);
  }

  /**
   * A CLUSTERSTATUS answer as live nodes and collections; {@code nodeId} names a replica's node
   * (solr1, ...) from Solr's node name.
   */
  static LiveStatus parse(NamedList<?> response, Function<String, String> nodeId) {
    NamedList<?> cluster = (NamedList<?>) response.get("cluster");
    List<String> live = new ArrayList<>();
    Object liveNodes = cluster.get("live_nodes");
    if (liveNodes instanceof Collection<?> c) {
      c.forEach(n -> live.add(n.toString()));
    }
    List<CollectionStatus> collections = new ArrayList<>();
    Object cols = cluster.get("collections");
    if (cols instanceof NamedList<?> nl) {
      for (Map.Entry<String, ?> e : nl) {
        collections.add(parseCollection(e.getKey(), asMap(e.getValue()), nodeId));
      }
    } else if (cols instanceof Map<?, ?> m) {
      for (Map.Entry<?, ?> e : m.entrySet()) {
        collections.add(parseCollection(e.getKey().toString(), asMap(e.getValue()), nodeId));
      }
    }
    return new LiveStatus(live, collections);
  }

  private static CollectionStatus parseCollection(
      String name, Map<String, Object> c, Function<String, String> nodeId) {
    List<ShardStatus> shards = new ArrayList<>();
    Map<String, Object> shardMap = asMap(c.get("shards"));
    for (Map.Entry<String, Object> s : shardMap.entrySet()) {
      Map<String, Object> shard = asMap(s.getValue());
      List<ReplicaStatus> replicas = new ArrayList<>();
      for (Map.Entry<String, Object> r : asMap(shard.get("replicas")).entrySet()) {
        Map<String, Object> rep = asMap(r.getValue());
        String node = String.valueOf(rep.get("node_name"));
        replicas.add(
            new ReplicaStatus(
                r.getKey(),
                String.valueOf(rep.get("core")),
                node,
                nodeId.apply(node),
                String.valueOf(rep.get("type")),
                String.valueOf(rep.get("state")),
                "true".equals(String.valueOf(rep.get("leader")))));
      }
      shards.add(
          new ShardStatus(
              s.getKey(),
              String.valueOf(shard.get("state")),
              String.valueOf(shard.get("range")),
              -1,
              replicas));
    }
    Object router = asMap(c.get("router")).get("name");
    return new CollectionStatus(
        name, String.valueOf(c.get("configName")), String.valueOf(router), shards);
  }

  private String nodeId(String solrNodeName) {
    return nodes.stream()
        .filter(n -> n.solrNodeName().equals(solrNodeName))
        .map(NodeState::id)
        .findFirst()
        .orElse("?");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> asMap(Object o) {
    if (o instanceof Map<?, ?> m) {
      return (Map<String, Object>) m;
    }
    if (o instanceof NamedList<?> nl) {
      return (Map<String, Object>) nl.asShallowMap();
    }
    return Map.of();
  }

  /** Searchable documents in one shard, or -1 when no replica of it answers. */
  public long docs(String collection, String shard) {
    return docs(quick, collection, shard);
  }

  static long docs(SolrClient client, String collection, String shard) {
    SolrQuery q = new SolrQuery("*:*").setRows(0);
    q.set("shards", shard);
    try {
      return client.query(collection, q).getResults().getNumFound();
    } catch (SolrServerException | IOException | RuntimeException e) {
      return -1;
    }
  }

  /** The collections sorted by name, their shards by name, with documents per shard. */
  public List<CollectionStatus> withDocs(List<CollectionStatus> collections) {
    return withDocs(quick, collections);
  }

  static List<CollectionStatus> withDocs(SolrClient client, List<CollectionStatus> collections) {
    List<CollectionStatus> result = new ArrayList<>();
    for (CollectionStatus c : sorted(collections)) {
      result.add(
          new CollectionStatus(
              c.name(),
              c.configset(),
              c.router(),
              c.shards().stream().map(s -> s.withDocs(docs(client, c.name(), s.name()))).toList()));
    }
    return result;
  }

  /** The collections sorted by name, their shards by name. */
  static List<CollectionStatus> sorted(List<CollectionStatus> collections) {
    return collections.stream()
        .map(
            c ->
                new CollectionStatus(
                    c.name(),
                    c.configset(),
                    c.router(),
                    c.shards().stream().sorted(Comparator.comparing(ShardStatus::name)).toList()))
        .sorted(Comparator.comparing(CollectionStatus::name))
        .toList();
  }

  /** Waits until the collection is healthy; fails after the timeout naming what is not. */
  public void waitForActive(String collection, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "not yet listed";
    while (System.nanoTime() < deadline) {
      try {
        LiveStatus status = clusterStatus();
        Optional<CollectionStatus> c = status.collection(collection);
        if (c.isPresent() && c.get().healthy(status.liveNodes())) {
          return;
        }
        last = c.map(cs -> describeUnhealthy(cs, status.liveNodes())).orElse("not yet listed");
      } catch (SolrscaleException e) {
        last = e.getMessage();
      }
      Waits.sleep(500);
    }
    throw SolrscaleException.failed(
        "collection '"
            + collection
            + "' was not active after "
            + timeout.toSeconds()
            + " s: "
            + last);
  }

  static String describeUnhealthy(CollectionStatus c, List<String> live) {
    List<String> bad = new ArrayList<>();
    for (ShardStatus s : c.shards()) {
      if (s.replicas().stream().noneMatch(ReplicaStatus::leader)) {
        bad.add(s.name() + " has no leader");
      }
      for (ReplicaStatus r : s.replicas()) {
        if (!"active".equals(r.state()) || !live.contains(r.node())) {
          bad.add(
              s.name()
                  + "/"
                  + r.name()
                  + " on "
                  + r.nodeId()
                  + " is "
                  + (live.contains(r.node()) ? r.state() : "on a node that is down"));
        }
      }
    }
    return String.join("; ", bad);
  }

  private <T extends SolrResponse> T run(SolrRequest<T> req, String what) {
    return run(client, req, what);
  }

  private <T extends SolrResponse> T run(SolrClient via, SolrRequest<T> req, String what) {
    try {
      T resp = req.process(via);
      NamedList<?> failure = (NamedList<?>) resp.getResponse().get("failure");
      if (failure != null && failure.size() > 0) {
        throw SolrscaleException.failed(what + " failed: " + failure);
      }
      return resp;
    } catch (SolrServerException | IOException | RuntimeException e) {
      if (e instanceof SolrscaleException se) {
        throw se;
      }
      throw SolrscaleException.failed(what + " failed: " + message(e));
    }
  }

  static String message(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getMessage() == null) {
      t = t.getCause();
    }
    String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  /** Zips a configset: the files under {@code dir} (its conf/ subdirectory if it has one). */
  public static byte[] zipDirectory(Path dir) {
    Path root = Files.isDirectory(dir.resolve("conf")) ? dir.resolve("conf") : dir;
    try (Stream<Path> walk = Files.walk(root)) {
      List<Path> files = walk.filter(Files::isRegularFile).sorted().toList();
      return zip(
          files,
          p -> root.relativize(p).toString().replace('\\', '/'),
          p -> {
            try {
              return Files.readAllBytes(p);
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    } catch (IOException | UncheckedIOException e) {
      throw SolrscaleException.usage("cannot read configset " + dir + ": " + e.getMessage());
    }
  }

  static <T> byte[] zip(List<T> entries, Function<T, String> name, Function<T, byte[]> bytes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(out)) {
      for (T e : entries) {
        zip.putNextEntry(new ZipEntry(name.apply(e)));
        zip.write(bytes.apply(e));
        zip.closeEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  @Override
  public void close() {
    List<SolrClient> all = new ArrayList<>(direct);
    all.add(client);
    all.add(quick);
    for (SolrClient c : all) {
      try {
        c.close();
      } catch (IOException e) {
        // closing a client: nothing to do
      }
    }
  }
}
