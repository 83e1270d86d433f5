package org.solrscale.cluster;

import java.util.List;
import java.util.Optional;

/** What SolrCloud itself says: live nodes and collections (from CLUSTERSTATUS). */
public record LiveStatus(List<String> liveNodes, List<CollectionStatus> collections) {
  public Optional<CollectionStatus> collection(String name) {
    return collections.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  public List<String> names() {
    return collections.stream().map(CollectionStatus::name).toList();
  }
}
