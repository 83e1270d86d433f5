package org.solrscale.cluster;

import java.nio.file.Path;

/**
 * Which SolrCloud to talk to and as whom, as a user gave it: a cluster solrscale started ({@code
 * name}), or any other by its ZooKeeper ensemble ({@code zk}) or some of its nodes ({@code url});
 * {@code user} with its password from {@code passwordFile} ("-": standard input) or the
 * environment; {@code truststore} for another cluster's HTTPS. Null for what was not given.
 */
public record ConnectOptions(
    String name, String zk, String url, String user, Path passwordFile, Path truststore) {

  /** True for a SolrCloud solrscale did not start (--zk or --url). */
  public boolean external() {
    return zk != null || url != null;
  }

  /** The target as the user named it: --zk ..., --url ... or cluster 'NAME'. */
  public String describe() {
    return zk != null ? "--zk " + zk : url != null ? "--url " + url : "cluster '" + name + "'";
  }
}
