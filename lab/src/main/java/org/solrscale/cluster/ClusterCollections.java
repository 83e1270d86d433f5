package org.solrscale.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.solrscale.spec.CollectionSpec;
import org.solrscale.spec.ExitCode;
import org.solrscale.spec.Problem;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.SpecValidator;

/**
 * The collections of one solrscale cluster: create (with Solr's reason when it refuses), delete,
 * wait until healthy, and keep the cluster's recorded spec in step with what Solr holds.
 */
public final class ClusterCollections {
  private final String name;
  private final StateStore store;
  private final Object stateLock;
  private final HostOps hosts;
  private final NodeOps nodes;
  private final Supplier<Access> access;
  private final Consumer<String> progress;

  /**
   * The collections of cluster {@code name}, whose state {@code store} keeps (saved under {@code
   * stateLock}) and whose nodes {@code nodes} runs on {@code hosts}; {@code access} is asked at
   * each call, as a cluster gets its credentials when it first starts.
   */
  ClusterCollections(
      String name,
      StateStore store,
      Object stateLock,
      HostOps hosts,
      NodeOps nodes,
      Supplier<Access> access,
      Consumer<String> progress) {
    this.name = name;
    this.store = store;
    this.stateLock = stateLock;
    this.hosts = hosts;
    this.nodes = nodes;
    this.access = access;
    this.progress = progress;
  }

  /** Creates one collection on the running Solr nodes and records it; one that is there fails. */
  public void create(CollectionSpec c, Duration timeout) {
    ClusterState state = store.load(name);
    for (Problem p : SpecValidator.validateCollection(c, nodes.running(state).size())) {
      if (p.error()) {
        throw SolrscaleException.usage(p.message());
      }
      progress.accept("warning: " + p.message());
    }
    List<NodeState> running = nodes.running(state);
    if (running.isEmpty()) {
      throw SolrscaleException.failed(
          "no Solr node of '" + name + "' is running; run: solrscale up --name " + name);
    }
    try (SolrAdmin admin = new SolrAdmin(running, state.solrNodes(), access.get())) {
      if (admin.clusterStatus().collection(c.name()).isPresent()) {
        throw SolrscaleException.usage("collection '" + c.name() + "' already exists");
      }
      ensure(admin, c, System.nanoTime() + timeout.toNanos(), false);
    }
    record(List.of(c));
  }

  /** Deletes one collection and forgets it; an unknown one is a usage error naming those there. */
  public void delete(String collection) {
    ClusterState state = store.load(name);
    List<NodeState> running = nodes.running(state);
    if (running.isEmpty()) {
      throw SolrscaleException.failed("no Solr node of '" + name + "' is running");
    }
    try (SolrAdmin admin = new SolrAdmin(running, state.solrNodes(), access.get())) {
      LiveStatus live = admin.clusterStatus();
      if (live.collection(collection).isEmpty()) {
        throw NoSuchCollection.error(collection, "cluster '" + name + "'", live.names());
      }
      admin.deleteCollection(collection);
    }
    List<CollectionSpec> cols = new ArrayList<>(state.spec().collections());
    cols.removeIf(o -> o.name().equals(collection));
    store.save(state.withSpec(state.spec().withCollections(cols)));
  }

  /** Waits until every collection of the cluster is healthy again (after a node came back). */
  public void waitUntilHealthy(Duration timeout) {
    ClusterState state = store.load(name);
    List<NodeState> running = nodes.running(state);
    if (running.isEmpty()) {
      throw SolrscaleException.failed("no Solr node of '" + name + "' is running");
    }
    try (SolrAdmin admin = new SolrAdmin(running, state.solrNodes(), access.get())) {
      for (CollectionStatus c : admin.clusterStatus().collections()) {
        admin.waitForActive(c.name(), timeout);
      }
    }
  }

  /**
   * Creates the collection if it is not there. One that is there and was {@code asked} for (by
   * flags or a spec) must have the shape asked for: else up would seem to have made it so.
   */
  void ensure(SolrAdmin admin, CollectionSpec c, long deadline, boolean asked) {
    LiveStatus status = admin.clusterStatus();
    Optional<CollectionStatus> live = status.collection(c.name());
    if (live.isPresent() && asked) {
      ClusterPlan.requireShape(name, live.get(), c);
    }
    if (live.isEmpty()) {
      createOrCleanUp(admin, c, deadline);
    }
    admin.waitForActive(c.name(), left(deadline));
    ClusterPlan.placementWarnings(admin.clusterStatus(), c.name()).forEach(progress);
  }

  /** Adds collections that are now there to the recorded spec (replacing any of the same name). */
  ClusterState record(List<CollectionSpec> collections) {
    synchronized (stateLock) {
      ClusterState state = store.load(name);
      state =
          state.withSpec(
              state
                  .spec()
                  .withCollections(ClusterPlan.merged(state.spec().collections(), collections)));
      store.save(state);
      return state;
    }
  }

  private static Duration left(long deadline) {
    return Duration.ofMillis(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
  }

  /**
   * Uploads the configset and creates the collection. If Solr refuses, whatever it made of it (the
   * collection, if its own clean-up did not remove it, and a configset of its own) is removed, and
   * Solr's reason is named: from the failing node's answer or, failing that, its log.
   */
  private void createOrCleanUp(SolrAdmin admin, CollectionSpec c, long deadline) {
    String config = Configsets.nameFor(c);
    admin.uploadConfigset(config, Configsets.zipFor(c));
    progress.accept(
        "creating collection "
            + c.name()
            + ": "
            + c.shards()
            + " shard(s) x "
            + c.replicas().total()
            + " replica(s), configset "
            + c.configset());
    try {
      admin.createCollection(c, config, left(deadline));
    } catch (SolrscaleException e) {
      if (admin.clusterStatus().collection(c.name()).isPresent()) {
        admin.deleteCollection(c.name());
      }
      if (!c.usesDefaultConfigset()) {
        admin.deleteConfigset(config);
      }
      progress.accept("removed what was made of collection " + c.name());
      throw e.exitCode() == ExitCode.USAGE ? e : causeFromLogs(c.name()).orElse(e);
    }
  }

  /** Solr's reason for a core of the collection it could not create, from a Solr node's log. */
  private Optional<SolrscaleException> causeFromLogs(String collection) {
    ClusterState state = store.load(name);
    for (NodeState n : state.solrNodes()) {
      Path log = NodeLogs.main(hosts.nodeDir(n), n);
      Optional<String> cause = NodeLogs.coreCreationCause(log, collection);
      if (cause.isPresent()) {
        return Optional.of(
            SolrscaleException.usage(
                "Solr refused collection '"
                    + collection
                    + "': "
                    + cause.get()
                    + " (from "
                    + log
                    + ")"));
      }
    }
    return Optional.empty();
  }
}
