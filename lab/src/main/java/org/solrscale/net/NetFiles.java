package org.solrscale.net;

import java.nio.file.Path;
import org.solrscale.runtime.SolrscaleHome;

/** Where a lab network keeps its state, keys and hosts' files: $SOLRSCALE_HOME/nets/NET/. */
final class NetFiles {
  private NetFiles() {}

  static Path nets(SolrscaleHome home) {
    return home.dir().resolve("nets");
  }

  static Path dir(SolrscaleHome home, String net) {
    return nets(home).resolve(net);
  }

  static Path state(SolrscaleHome home, String net) {
    return dir(home, net).resolve("net.json");
  }

  /** The net's client key (its public half is the hosts' authorized_keys). */
  static Path clientKey(SolrscaleHome home, String net) {
    return dir(home, net).resolve("id_ed25519");
  }

  static Path authorizedKeys(SolrscaleHome home, String net) {
    return dir(home, net).resolve("authorized_keys");
  }

  static Path knownHosts(SolrscaleHome home, String net) {
    return dir(home, net).resolve("known_hosts");
  }

  static Path hostDir(SolrscaleHome home, String net, String host) {
    return dir(home, net).resolve("hosts").resolve(host);
  }

  static Path sshdConfig(NetHost host) {
    return Path.of(host.dir()).resolve("sshd_config");
  }

  static Path hostKey(NetHost host) {
    return Path.of(host.dir()).resolve("ssh_host_ed25519_key");
  }

  static Path sshdLog(NetHost host) {
    return Path.of(host.dir()).resolve("sshd.log");
  }

  /** Written when solrscale created /run/sshd, so that the last net's down may remove it again. */
  static Path privsepMarker(SolrscaleHome home) {
    return nets(home).resolve("created-run-sshd");
  }

  static Path lock(SolrscaleHome home) {
    return nets(home).resolve(".lock");
  }
}
