package org.solrscale.node;

import java.util.EnumSet;
import javax.servlet.DispatcherType;
import org.apache.solr.servlet.CoreContainerProvider;
import org.apache.solr.servlet.SolrDispatchFilter;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http2.HTTP2Cipher;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.rewrite.handler.RewriteHandler;
import org.eclipse.jetty.rewrite.handler.RewritePatternRule;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.gzip.GzipHandler;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Starts one Solr node in this JVM: Jetty with an HTTP/1.1 + h2c connector (or, with TLS, HTTPS
 * with HTTP/2 by ALPN) serving solr-core's dispatch filter at /solr, configured from the system
 * properties bin/solr would set.
 */
public final class SolrNode {

  private SolrNode() {}

  public static void main(String[] args) throws Exception {
    String host = required("jetty.host");
    int port = Integer.parseInt(required("jetty.port"));
    required("solr.solr.home");
    readyForFlightRecordings();

    // Same shape as the distribution's jetty.xml: a large thread pool, no server version header.
    QueuedThreadPool threads = new QueuedThreadPool(10000, 10, 120000);
    threads.setName("solr-jetty");
    Server server = new Server(threads);

    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setOutputBufferSize(32768);
    http.setRequestHeaderSize(8192);
    String keystore = System.getProperty(KEYSTORE);
    ServerConnector connector =
        keystore == null
            // Solr's inter-node client speaks HTTP/2 clear text: without h2c Overseer calls fail.
            ? new ServerConnector(
                server, new HttpConnectionFactory(http), new HTTP2CServerConnectionFactory(http))
            : https(server, http, keystore, port);
    connector.setHost(host);
    connector.setPort(port);
    connector.setIdleTimeout(120000);
    server.addConnector(connector);

    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.setContextPath("/solr");
    context.addEventListener(new CoreContainerProvider());
    context.addFilter(SolrDispatchFilter.class, "/*", EnumSet.of(DispatcherType.REQUEST));

    // As the distribution's jetty-gzip.xml: responses are compressed when the client asks.
    GzipHandler gzip = new GzipHandler();
    gzip.setMinGzipSize(2048);
    gzip.setIncludedMethods("GET", "POST");
    gzip.setHandler(context);

    // As the distribution's jetty.xml: the v2 API answers at /api/*.
    RewriteHandler rewrite = new RewriteHandler();
    rewrite.setRewriteRequestURI(true);
    rewrite.setRewritePathInfo(false);
    rewrite.setOriginalPathAttribute("requestedPath");
    rewrite.addRule(new RewritePatternRule("/api/*", "/solr/____v2"));
    rewrite.setHandler(gzip);
    server.setHandler(rewrite);

    server.setStopAtShutdown(true);
    server.setStopTimeout(60000);
    server.start();
    System.out.println("solrscale node listening on " + host + ":" + port);
    server.join();
  }

  /** The node's PKCS12 key store: set when the cluster runs with TLS. */
  static final String KEYSTORE = "solrscale.tls.keystore";

  /** The trust store (the lab CA) for Solr's own clients between nodes. */
  static final String TRUSTSTORE = "solrscale.tls.truststore";

  /** Where the stores' password comes from: the environment, never the command line. */
  static final String PASSWORD_ENV = "SOLRSCALE_TLS_STORE_PASSWORD";

  /**
   * As the distribution's jetty-ssl.xml and jetty-https.xml: TLS, then ALPN choosing HTTP/2 or
   * HTTP/1.1. Solr's own clients (between nodes, PKI authentication) read the javax.net.ssl
   * properties, set here inside the JVM so that no password is on the command line.
   */
  private static ServerConnector https(
      Server server, HttpConfiguration http, String keystore, int port) {
    String password = System.getenv(PASSWORD_ENV);
    String truststore = required(TRUSTSTORE);
    if (password == null || password.isEmpty()) {
      System.err.println("environment variable " + PASSWORD_ENV + " is required with " + KEYSTORE);
      System.exit(2);
    }
    System.setProperty("javax.net.ssl.keyStore", keystore);
    System.setProperty("javax.net.ssl.keyStorePassword", password);
    System.setProperty("javax.net.ssl.keyStoreType", "PKCS12");
    System.setProperty("javax.net.ssl.trustStore", truststore);
    System.setProperty("javax.net.ssl.trustStorePassword", password);
    System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
    System.setProperty("solr.jetty.https.port", String.valueOf(port));

    SslContextFactory.Server ssl = new SslContextFactory.Server();
    ssl.setKeyStorePath(keystore);
    ssl.setKeyStorePassword(password);
    ssl.setKeyStoreType("PKCS12");
    ssl.setCipherComparator(HTTP2Cipher.COMPARATOR);
    ssl.setUseCipherSuitesOrder(true);

    HttpConfiguration https = new HttpConfiguration(http);
    https.setSecureScheme("https");
    https.setSecurePort(port);
    https.addCustomizer(new SecureRequestCustomizer());
    ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2", "http/1.1");
    alpn.setDefaultProtocol("http/1.1");
    return new ServerConnector(
        server,
        new SslConnectionFactory(ssl, alpn.getProtocol()),
        alpn,
        new HTTP2ServerConnectionFactory(https),
        new HttpConnectionFactory(https));
  }

  /**
   * Sets Java Flight Recorder up now, before Solr's code is compiled: the first recording in a
   * JVM's life instruments JDK classes, which throws away the compiled code that uses them. Started
   * later by --profile on a warm node under load, that cost a step up to 90 % of its throughput for
   * many seconds while everything was compiled again (docs/bench/profile-overhead.md); done here it
   * costs the start a fraction of a second and later recordings nothing of the kind. Nothing is
   * kept: the recording records nothing and is closed at once.
   */
  private static void readyForFlightRecordings() {
    try (jdk.jfr.Recording r =
        new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("profile"))) {
      r.setToDisk(false);
      r.start();
      r.stop();
    } catch (Exception | LinkageError e) {
      // a JVM without JFR: --profile will say so when it is asked for
    }
  }

  private static String required(String property) {
    String value = System.getProperty(property);
    if (value == null || value.isBlank()) {
      System.err.println("system property " + property + " is required");
      System.exit(2);
    }
    return value;
  }
}
