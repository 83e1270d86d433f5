package org.solrscale.cli;

import java.nio.file.Path;
import org.solrscale.cluster.Access;
import org.solrscale.cluster.Connect;
import org.solrscale.cluster.ConnectOptions;
import picocli.CommandLine.Option;

/**
 * Which SolrCloud a command talks to, as flags: a cluster solrscale started ({@code --name}), or
 * any other by its ZooKeeper ensemble ({@code --zk}) or some of its nodes ({@code --url}). They
 * fill a {@link ConnectOptions}; connecting is {@link Connect}'s.
 */
final class SolrTarget {
  @Option(
      names = "--name",
      defaultValue = "lab",
      description = "Cluster started by solrscale (default: ${DEFAULT-VALUE}).")
  String name;

  @Option(
      names = "--zk",
      paramLabel = "HOST:PORT[,HOST:PORT...][/CHROOT]",
      description = "ZooKeeper ensemble of any SolrCloud (instead of --name).")
  String zk;

  @Option(
      names = "--url",
      paramLabel = "URL[,URL...]",
      description =
          "Solr base URLs of any SolrCloud, e.g. http://127.0.0.1:8983/solr (instead of --name).")
  String url;

  @Option(
      names = "--user",
      paramLabel = "USER",
      description =
          "Solr user for BasicAuth; its password from SOLRSCALE_PASSWORD or --password-file (a"
              + " cluster solrscale started with --auth basic: admin, the default, or reader).")
  String user;

  @Option(
      names = "--password-file",
      paramLabel = "FILE",
      description =
          "File whose first line is the password of --user (instead of SOLRSCALE_PASSWORD).")
  Path passwordFile;

  @Option(
      names = "--truststore",
      paramLabel = "FILE",
      description =
          "PKCS12 trust store with the CA of a --zk/--url cluster's HTTPS certificates; its"
              + " password, if any, from SOLRSCALE_TRUSTSTORE_PASSWORD.")
  Path truststore;

  private Connect connect;

  /** The flags as the options record {@link Connect} takes. */
  ConnectOptions options() {
    return new ConnectOptions(name, zk, url, user, passwordFile, truststore);
  }

  /** The target, opened once (nothing is reached until it is used). */
  Connect connect() {
    if (connect == null) {
      connect = Connect.open(options(), Terminal.home(), Terminal.progress());
    }
    return connect;
  }

  /** Who to be to Solr ({@link Connect#access}). */
  Access access() {
    return connect().access();
  }

  /** True for a SolrCloud solrscale did not start (--zk or --url). */
  boolean external() {
    return options().external();
  }

  String describe() {
    return options().describe();
  }
}
