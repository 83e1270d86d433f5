package org.solrscale.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.cloud.ClusterState;
import org.apache.solr.common.cloud.SolrZkClient;
import org.apache.solr.common.util.Utils;
import org.solrscale.runtime.SolrscaleHome;
import org.solrscale.spec.SolrscaleException;

/**
 * Connecting to the SolrCloud a command names ({@link ConnectOptions}): who to be (users,
 * passwords, trust stores), a routing client checked for access, a ZooKeeper chroot that holds no
 * SolrCloud said in one line, and the URLs of its nodes.
 */
public final class Connect {
  private final ConnectOptions options;
  private final SolrscaleHome home;
  private final Consumer<String> progress;
  private final String name;
  private final String zk;
  private final String url;
  private final String user;
  private final Path passwordFile;
  private final Path truststore;

  private Connect(ConnectOptions options, SolrscaleHome home, Consumer<String> progress) {
    this.options = options;
    this.home = home;
    this.progress = progress;
    this.name = options.name();
    this.zk = options.zk();
    this.url = options.url();
    this.user = options.user();
    this.passwordFile = options.passwordFile();
    this.truststore = options.truststore();
  }

  /**
   * The target {@code options} name; nothing is reached until it is used ({@link #access}, {@link
   * #client}, {@link #urls}). {@code home} and {@code progress} serve a cluster solrscale started.
   */
  public static Connect open(
      ConnectOptions options, SolrscaleHome home, Consumer<String> progress) {
    return new Connect(options, home, progress);
  }

  /** The options this target was opened with. */
  public ConnectOptions options() {
    return options;
  }

  /** The cluster solrscale started that --name names (its state may be missing). */
  public Cluster cluster() {
    return new Cluster(home, name, progress);
  }

  /** The trust store's password, from the environment only. */
  public static final String TRUSTSTORE_PASSWORD_VARIABLE = "SOLRSCALE_TRUSTSTORE_PASSWORD";

  /** Where an external cluster's password is read from, besides --password-file. */
  public static final String PASSWORD_VARIABLE = "SOLRSCALE_PASSWORD";

  private Access access;

  /**
   * Who to be to Solr: for a cluster solrscale started, a user from its credentials file (admin
   * unless --user says reader); for --zk and --url, --user with its password from --password-file
   * or SOLRSCALE_PASSWORD (never from the command line, where ps would show it), or nobody.
   */
  public Access access() {
    if (access == null) {
      access = resolveAccess();
    }
    return access;
  }

  private Access resolveAccess() {
    Access a = resolveUser();
    if (truststore == null) {
      return a;
    }
    if (!external()) {
      throw SolrscaleException.usage(
          "--truststore is for --zk and --url: a cluster solrscale started with --tls is trusted"
              + " through its own CA");
    }
    if (!Files.isReadable(truststore)) {
      throw SolrscaleException.usage("cannot read --truststore " + truststore);
    }
    a = a.trusting(truststore, System.getenv(TRUSTSTORE_PASSWORD_VARIABLE));
    a.sslContext(); // a wrong password or a file that is no trust store: one line, now
    return a;
  }

  private Access resolveUser() {
    if (!external()) {
      if (passwordFile != null) {
        throw SolrscaleException.usage(
            "--password-file is for --zk and --url: solrscale keeps the passwords of cluster '"
                + name
                + "' itself");
      }
      Cluster cluster = cluster();
      return user == null ? cluster.access() : requireBasic(cluster).access(user);
    }
    String password = null;
    if (passwordFile != null) {
      try {
        // "-": the first line of standard input
        password =
            (passwordFile.toString().equals("-")
                    ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                        .lines()
                    : Files.readAllLines(passwordFile, StandardCharsets.UTF_8).stream())
                .findFirst()
                .orElse("")
                .strip();
      } catch (IOException e) {
        throw SolrscaleException.usage(
            "cannot read --password-file " + passwordFile + ": " + e.getMessage());
      }
      if (password.isEmpty()) {
        throw SolrscaleException.usage("--password-file " + passwordFile + " is empty");
      }
    } else {
      String env = System.getenv(PASSWORD_VARIABLE);
      password = env == null || env.isEmpty() ? null : env;
    }
    if (user == null) {
      if (passwordFile != null) {
        throw SolrscaleException.usage("--password-file needs --user: whose password is it?");
      }
      return Access.NONE; // SOLRSCALE_PASSWORD alone is ignored: it may be set for another cluster
    }
    if (password == null) {
      throw SolrscaleException.usage(
          "--user "
              + user
              + " needs its password: set "
              + PASSWORD_VARIABLE
              + " or give --password-file FILE (never on the command line)");
    }
    return Access.basic(user, password);
  }

  private Cluster requireBasic(Cluster cluster) {
    if (!cluster.access().authenticated()) {
      throw SolrscaleException.usage(
          "cluster '"
              + name
              + "' was started without --auth basic: it has no users, so leave out --user");
    }
    return cluster;
  }

  /** True for a SolrCloud solrscale did not start (--zk or --url). */
  public boolean external() {
    return options.external();
  }

  /** A routing client, connected: an unreachable target fails here, before any work starts. */
  public CloudHttp2SolrClient client() {
    if (zk != null && url != null) {
      throw SolrscaleException.usage("give --zk or --url, not both");
    }
    if (zk == null) {
      // a refusal here would surface only as "Timed out waiting for cluster" after 15 s
      String first = urls().get(0);
      SolrHttp.Reply r =
          new SolrHttp(access())
              .get(
                  first + "/admin/collections?action=CLUSTERSTATUS&wt=json",
                  Duration.ofSeconds(15));
      String refused = access().refusal(r.status(), "Solr at " + first);
      if (refused != null) {
        throw SolrscaleException.usage(refused);
      }
      if (r.error() != null && r.error().startsWith(SolrHttp.TLS_FAILED)) {
        throw untrusted(first, r.error());
      }
    }
    CloudHttp2SolrClient client = zk != null ? zkClient() : access().cloud(urls());
    if (zk != null) {
      // a ZooKeeper that answers but holds no SolrCloud there: say so now, not after the
      // client's 15 s wait for a cluster that will never be ready
      String why = zkDiagnosis();
      if (why != null) {
        closeQuietly(client);
        throw SolrscaleException.environment(
            "cannot reach SolrCloud at " + describe() + ": " + why);
      }
    }
    try {
      client.connect(15, TimeUnit.SECONDS);
      checkAccess(client);
      return client;
    } catch (SolrscaleException e) {
      closeQuietly(client);
      throw e;
    } catch (Exception e) {
      closeQuietly(client);
      String refused = refusal(e);
      if (refused != null) {
        throw SolrscaleException.usage(refused);
      }
      String why = zk != null ? zkDiagnosis() : null;
      throw SolrscaleException.environment(
          "cannot reach SolrCloud at "
              + describe()
              + ": "
              + (why != null
                  ? why
                  : e.getMessage() == null
                      ? e.toString()
                      : e.getMessage().replaceAll("\\s+", " ")));
    }
  }

  /**
   * Why a ZooKeeper that answers holds no SolrCloud where --zk points (a chroot that does not
   * exist, or one no Solr node registered under), or null: then the client's own error stands.
   */
  private String zkDiagnosis() {
    int slash = zk.indexOf('/');
    String hosts = slash < 0 ? zk : zk.substring(0, slash);
    String root = slash < 0 ? "" : zk.substring(slash).replaceAll("/+$", "");
    try (SolrZkClient z =
        new SolrZkClient.Builder()
            .withUrl(hosts)
            .withTimeout(5, TimeUnit.SECONDS)
            .withConnTimeOut(5, TimeUnit.SECONDS)
            .build()) {
      if (!root.isEmpty() && !z.exists(root, true)) {
        return "ZooKeeper at "
            + hosts
            + " answers but has no "
            + root
            + " (the chroot in --zk): "
            + (z.exists("/live_nodes", true)
                ? "it holds a SolrCloud at its root, so give --zk " + hosts
                : "give the chroot of your Solr nodes' zkHost; at its root are "
                    + z.getChildren("/", null, true));
      }
      if (!z.exists(root + "/live_nodes", true)) {
        return "ZooKeeper at "
            + hosts
            + " answers but no SolrCloud uses "
            + (root.isEmpty() ? "its root" : root)
            + " (no live_nodes there; it holds "
            + z.getChildren(root.isEmpty() ? "/" : root, null, true)
            + "): give the chroot of your Solr nodes' zkHost in --zk, e.g. HOST:PORT/solr";
      }
      if (z.getChildren(root + "/live_nodes", null, true).isEmpty()) {
        return "ZooKeeper at "
            + hosts
            + " answers but no Solr node is live under "
            + (root.isEmpty() ? "its root" : root)
            + ": start the nodes";
      }
      return null;
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      return null; // ZooKeeper does not answer either: the client's error says so
    }
  }

  /**
   * Fails at once, in one line, when no server of --zk accepts a TCP connection (refused, or silent
   * for 3 s): SolrJ would wait for its connect timeouts (about 30 s) before saying only "Timed out
   * waiting for cluster".
   */
  private void requireOneListens(List<String> hosts) {
    List<String> why = new ArrayList<>();
    for (String h : hosts) {
      int colon = h.lastIndexOf(':');
      try (Socket s = new Socket()) {
        s.connect(
            new InetSocketAddress(h.substring(0, colon), Integer.parseInt(h.substring(colon + 1))),
            3000);
        return;
      } catch (IOException | IllegalArgumentException e) {
        why.add(h + " (" + (e.getMessage() == null ? e.toString() : e.getMessage()) + ")");
      }
    }
    throw SolrscaleException.environment(
        "cannot reach SolrCloud at "
            + describe()
            + ": no ZooKeeper server accepts a connection: "
            + String.join(", ", why)
            + "; check --zk and that ZooKeeper runs");
  }

  private CloudHttp2SolrClient zkClient() {
    int slash = zk.indexOf('/');
    List<String> hosts =
        Arrays.stream((slash < 0 ? zk : zk.substring(0, slash)).split(","))
            .map(String::trim)
            .filter(h -> !h.isEmpty())
            .toList();
    if (hosts.isEmpty() || hosts.stream().anyMatch(h -> !h.matches("[^:]+:\\d+"))) {
      throw SolrscaleException.usage("--zk '" + zk + "' is not HOST:PORT[,HOST:PORT...][/CHROOT]");
    }
    requireOneListens(hosts);
    Optional<String> chroot = slash < 0 ? Optional.empty() : Optional.of(zk.substring(slash));
    return new CloudHttp2SolrClient.Builder(hosts, chroot)
        .withInternalClientBuilder(access().apply(new Http2SolrClient.Builder()))
        .withZkConnectTimeout(10, TimeUnit.SECONDS)
        .withZkClientTimeout(15, TimeUnit.SECONDS)
        .build();
  }

  /**
   * Refuses a collection (or alias) the cluster does not hold, naming those it does: else the first
   * batch would fail with Solr's "Collection not found" after the input was opened.
   */
  public void requireCollection(CloudSolrClient client, String collection) {
    Collection<String> names;
    List<String> resolved;
    try {
      names = client.getClusterState().getCollectionNames();
      resolved = client.getClusterStateProvider().resolveAlias(collection);
    } catch (RuntimeException e) {
      return; // the state cannot be read: the requests themselves will say what is wrong
    }
    if (!names.containsAll(resolved)) {
      throw NoSuchCollection.error(collection, describe(), names);
    }
  }

  /**
   * Asks one live node for the cluster status, as the user given: a wrong or missing credential
   * then fails here, in one line naming the user, instead of in every request of the work.
   */
  private void checkAccess(CloudHttp2SolrClient client) {
    try {
      CollectionAdminRequest.getClusterStatus().process(client);
    } catch (Exception e) {
      String refused = refusal(e);
      if (refused != null) {
        throw SolrscaleException.usage(refused);
      }
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof javax.net.ssl.SSLHandshakeException) {
          throw untrusted(describe(), t.getMessage());
        }
      }
      // anything else: the work's own requests say what is wrong
    }
  }

  /** A TLS handshake with Solr at {@code where} failed: one line, and what to give. */
  private SolrscaleException untrusted(String where, String detail) {
    return SolrscaleException.environment(
        "cannot talk HTTPS with Solr at "
            + where
            + ": "
            + detail
            + (access().hasTruststore()
                ? "; is the CA of its certificate in --truststore?"
                : "; give --truststore FILE with the CA of its certificate"));
  }

  /** The one-line message for an exception that carries Solr's 401 or 403, else null. */
  private String refusal(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SolrException se && (se.code() == 401 || se.code() == 403)) {
        return access().refusal(se.code(), "Solr at " + describe());
      }
      String m = t.getMessage();
      if (m != null && (m.contains("Error 401") || m.contains("HTTP ERROR 401"))) {
        return access().refusal(401, "Solr at " + describe());
      }
    }
    return null;
  }

  /** The Solr URLs of --url, or of the running nodes of the cluster --name. */
  public List<String> urls() {
    if (url != null) {
      List<String> urls =
          Arrays.stream(url.split(",")).map(String::trim).filter(u -> !u.isEmpty()).toList();
      if (urls.isEmpty()
          || urls.stream().anyMatch(u -> !u.startsWith("http://") && !u.startsWith("https://"))) {
        throw SolrscaleException.usage(
            "--url '" + url + "' is not a comma-separated list of http(s):// URLs");
      }
      return urls;
    }
    List<String> urls = cluster().solrUrls();
    if (urls.isEmpty()) {
      throw SolrscaleException.failed(
          "no Solr node of '" + name + "' is running; run: solrscale up --name " + name);
    }
    return urls;
  }

  /** The base URLs of the cluster's live nodes, sorted, with its urlScheme (http or https). */
  public static List<String> liveNodeUrls(CloudSolrClient client) {
    ClusterState state = client.getClusterState();
    String scheme = urlScheme(client);
    return state.getLiveNodes().stream()
        .sorted()
        .map(n -> Utils.getBaseUrlForNodeName(n, scheme))
        .toList();
  }

  /** The cluster property urlScheme: https for a cluster with TLS, else http. */
  public static String urlScheme(CloudSolrClient client) {
    try {
      return client.getClusterStateProvider().getClusterProperty("urlScheme", "http");
    } catch (RuntimeException e) {
      return "http";
    }
  }

  public String describe() {
    return options.describe();
  }

  private static void closeQuietly(CloudSolrClient c) {
    try {
      c.close();
    } catch (Exception ignored) {
      // closing what failed to connect
    }
  }

  /**
   * {@code work} on this SolrCloud of someone else's, as an {@link ExternalCluster} over a client
   * connected and checked here and closed afterwards.
   */
  public <T> T withExternal(External<T> work) throws InterruptedException {
    try (CloudHttp2SolrClient client = client()) {
      return work.apply(new ExternalCluster(client, describe(), access()));
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot close the Solr client: " + e.getMessage());
    }
  }

  /** Work on an {@link ExternalCluster}, which may be interrupted. */
  public interface External<T> {
    T apply(ExternalCluster cluster) throws InterruptedException;
  }

  /** {@code work} with a routing client connected and checked here, closed afterwards. */
  public <T> T withClient(Function<CloudHttp2SolrClient, T> work) {
    try (CloudHttp2SolrClient client = client()) {
      return work.apply(client);
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot close the Solr client: " + e.getMessage());
    }
  }

  /** The status of this SolrCloud of someone else's: nodes, collections, replicas. */
  public ClusterReport externalStatus() {
    return withClient(c -> ExternalStatus.read(c, describe(), zk));
  }

  /** The live nodes of a --zk cluster, or the --url servers as given. */
  public List<String> externalNodeUrls() {
    return zk != null ? withClient(Connect::liveNodeUrls) : urls();
  }
}
