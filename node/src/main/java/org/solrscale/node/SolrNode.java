package org.solrscale.node;

import java.util.EnumSet;
import javax.servlet.DispatcherType;
import org.apache.solr.servlet.CoreContainerProvider;
import org.apache.solr.servlet.SolrDispatchFilter;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.rewrite.handler.RewriteHandler;
import org.eclipse.jetty.rewrite.handler.RewritePatternRule;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.gzip.GzipHandler;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Starts one Solr node in this JVM: Jetty with an HTTP/1.1 + h2c connector serving solr-core's
 * dispatch filter at /solr, configured from the system properties bin/solr would set.
 */
public final class SolrNode {

  private SolrNode() {}

  public static void main(String[] args) throws Exception {
    String host = required("jetty.host");
    int port = Integer.parseInt(required("jetty.port"));
    required("solr.solr.home");

    // Same shape as the distribution's jetty.xml: a large thread pool, no server version header.
    QueuedThreadPool threads = new QueuedThreadPool(10000, 10, 120000);
    threads.setName("solr-jetty");
    Server server = new Server(threads);

    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setOutputBufferSize(32768);
    http.setRequestHeaderSize(8192);
    // Solr's inter-node client speaks HTTP/2 clear text: without h2c Overseer calls fail.
    ServerConnector connector =
        new ServerConnector(
            server, new HttpConnectionFactory(http), new HTTP2CServerConnectionFactory(http));
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

  private static String required(String property) {
    String value = System.getProperty(property);
    if (value == null || value.isBlank()) {
      System.err.println("system property " + property + " is required");
      System.exit(2);
    }
    return value;
  }
}
