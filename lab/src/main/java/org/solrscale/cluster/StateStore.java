package org.solrscale.cluster;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.solrscale.runtime.FileTrees;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.SolrscaleException;

/** Reads and writes cluster state files: $SOLRSCALE_HOME/clusters/NAME/cluster.json. */
public final class StateStore {
  private static final ObjectMapper JSON =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  private final SolrscaleHome home;

  public StateStore(SolrscaleHome home) {
    this.home = home;
  }

  public Path clusterDir(String name) {
    return home.cluster(name);
  }

  public Path nodeDir(String cluster, String nodeId) {
    return clusterDir(cluster).resolve(nodeId);
  }

  private Path file(String name) {
    return clusterDir(name).resolve("cluster.json");
  }

  public Optional<ClusterState> find(String name) {
    Path f = file(name);
    if (!Files.isRegularFile(f)) {
      return Optional.empty();
    }
    try {
      return Optional.of(JSON.readValue(f.toFile(), ClusterState.class));
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cluster state "
              + f
              + " is unreadable ("
              + e.getMessage()
              + "); remove that directory if the cluster is gone");
    }
  }

  public ClusterState load(String name) {
    return find(name)
        .orElseThrow(() -> noSuchCluster(name, "start one with: solrscale up --name " + name));
  }

  /** A usage error for a cluster that is not here, naming those that are, then what to do. */
  public SolrscaleException noSuchCluster(String name, String whatToDo) {
    List<String> names = all().stream().map(ClusterState::name).sorted().toList();
    return SolrscaleException.usage(
        "no cluster named '"
            + name
            + "' here ("
            + (names.isEmpty() ? "there is none" : "there are " + String.join(", ", names))
            + "); "
            + whatToDo);
  }

  public synchronized void save(ClusterState state) {
    try {
      Files.createDirectories(clusterDir(state.name()));
      Path tmp = clusterDir(state.name()).resolve("cluster.json.tmp");
      JSON.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), state);
      Files.move(
          tmp,
          file(state.name()),
          StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot write cluster state for " + state.name() + ": " + e.getMessage());
    }
  }

  /** Every cluster with a state file, to keep their ports out of a new cluster's way. */
  public List<ClusterState> all() {
    List<ClusterState> result = new ArrayList<>();
    if (!Files.isDirectory(home.clusters())) {
      return result;
    }
    try (Stream<Path> dirs = Files.list(home.clusters())) {
      for (Path d : dirs.toList()) {
        try {
          find(d.getFileName().toString()).ifPresent(result::add);
        } catch (SolrscaleException e) {
          // an unreadable neighbour must not stop this cluster
        }
      }
    } catch (IOException e) {
      throw SolrscaleException.environment(
          "cannot list " + home.clusters() + ": " + e.getMessage());
    }
    return result;
  }

  /** Whether anything of the cluster is kept here: its state, or the files of its nodes. */
  public boolean hasFiles(String name) {
    return Files.isDirectory(clusterDir(name));
  }

  /**
   * Forgets the cluster's state, keeping the rest of its folder (the logs of nodes that failed).
   */
  public void forget(String name) {
    try {
      Files.deleteIfExists(clusterDir(name).resolve("cluster.json"));
    } catch (IOException e) {
      // the state file stays; down --purge removes it
    }
  }

  /** Deletes the cluster's folder: its state and whatever its nodes kept in it. */
  public void delete(String name) {
    FileTrees.delete(clusterDir(name));
  }
}
