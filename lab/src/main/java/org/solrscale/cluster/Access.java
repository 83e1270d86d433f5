package org.solrscale.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.solr.client.solrj.embedded.SSLConfig;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.solrscale.spec.SolrscaleException;

/**
 * Who solrscale is to Solr: nobody ({@link #NONE}, a cluster without authentication) or a user with
 * its password for Solr's BasicAuth. Every client solrscale makes (SolrJ, its own HTTP calls, the
 * load driver) takes one. The password never appears in {@link #toString()}, so an Access may be
 * logged or put into a message safely.
 */
public final class Access {
  public static final Access NONE = new Access(null, null, null, null);

  private final String user;
  private final String password;
  private final Path truststore;
  private final String truststorePassword;
  private SSLContext sslContext;

  private Access(String user, String password, Path truststore, String truststorePassword) {
    this.user = user;
    this.password = password;
    this.truststore = truststore;
    this.truststorePassword = truststorePassword;
  }

  /**
   * This access, trusting the CA in {@code truststore} (PKCS12) for HTTPS: a cluster's lab CA, or
   * an external cluster's --truststore.
   */
  public Access trusting(Path store, String storePassword) {
    return new Access(user, password, store, storePassword);
  }

  /** Whether HTTPS is to be trusted through a store of its own (else the JDK's default CAs). */
  public boolean hasTruststore() {
    return truststore != null;
  }

  /** An SSL context trusting the trust store's CAs, or null for the JDK's default. */
  public synchronized SSLContext sslContext() {
    if (truststore == null) {
      return null;
    }
    if (sslContext == null) {
      try (InputStream in = Files.newInputStream(truststore)) {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(in, truststorePassword == null ? null : truststorePassword.toCharArray());
        TrustManagerFactory tmf =
            TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        sslContext = ctx;
      } catch (IOException | GeneralSecurityException e) {
        throw SolrscaleException.usage(
            "cannot load the trust store " + truststore + ": " + e.getMessage());
      }
    }
    return sslContext;
  }

  /** BasicAuth as {@code user} with {@code password}. */
  public static Access basic(String user, String password) {
    if (user == null || user.isBlank() || password == null) {
      throw new IllegalArgumentException("a user and a password");
    }
    return new Access(user, password, null, null);
  }

  /**
   * {@code builder} with these credentials only: for a client built on another's HttpClient ({@code
   * withHttpClient}), which brings its TLS settings and must not be given new ones.
   */
  public Http2SolrClient.Builder applyCredentials(Http2SolrClient.Builder builder) {
    return user == null ? builder : builder.withBasicAuthCredentials(user, password);
  }

  /** A routing client over {@code urls}, sending these credentials, ready for https. */
  public CloudHttp2SolrClient cloud(List<String> urls) {
    return https(
        new CloudHttp2SolrClient.Builder(urls)
            .withInternalClientBuilder(apply(new Http2SolrClient.Builder()))
            .build(),
        urls);
  }

  /**
   * {@code client}, its cluster properties read once when {@code urls} are https: SolrJ 9.10's HTTP
   * cluster-state provider answers urlScheme "http" until something has asked for all the
   * properties, and would send the first routed request (a configset upload) in clear text to an
   * HTTPS port. A failure here is left to the first request to report.
   */
  public static CloudHttp2SolrClient https(CloudHttp2SolrClient client, List<String> urls) {
    if (urls.stream().anyMatch(u -> u.startsWith("https:"))) {
      try {
        client.getClusterStateProvider().getClusterProperties();
      } catch (RuntimeException e) {
        // the requests that follow say what is wrong
      }
    }
    return client;
  }

  /** True when requests carry credentials. */
  public boolean authenticated() {
    return user != null;
  }

  /** The user, or null for {@link #NONE}. */
  public String user() {
    return user;
  }

  /** The value of the Authorization header, or null when there is none to send. */
  public String authorization() {
    if (user == null) {
      return null;
    }
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  /** {@code builder}, sending these credentials with every request (none for {@link #NONE}). */
  public Http2SolrClient.Builder apply(Http2SolrClient.Builder builder) {
    Http2SolrClient.Builder b =
        user == null ? builder : builder.withBasicAuthCredentials(user, password);
    if (truststore != null) {
      // SolrJ applies a trust store only with clientAuth true; no key store is sent
      b.withSSLConfig(
          new SSLConfig(true, true, null, null, truststore.toString(), truststorePassword));
    }
    return b;
  }

  /**
   * The password itself, only to hand to a child process through its standard input (a driver on
   * another host): never on a command line, into a file of results or a message. Null for NONE.
   */
  public String secretForStdin() {
    return password;
  }

  /** True when {@code text} contains the password (a check for leaks; false without one). */
  public boolean appearsIn(String text) {
    return password != null && text.contains(password);
  }

  /**
   * What to say when Solr answered 401 or 403 to this user: one line, naming the user and what to
   * do; null for any other status.
   */
  public String refusal(int status, String where) {
    if (status == 401) {
      return user == null
          ? where
              + " requires authentication (HTTP 401): give --user USER with its password in"
              + " SOLRSCALE_PASSWORD or --password-file FILE"
          : where
              + " did not accept the password of user '"
              + user
              + "' (HTTP 401): check SOLRSCALE_PASSWORD or --password-file";
    }
    if (status == 403) {
      return where
          + " refused user '"
          + (user == null ? "(none)" : user)
          + "' this request (HTTP 403): it needs a user whose role allows it (the admin user)";
    }
    return null;
  }

  @Override
  public String toString() {
    return user == null ? "no authentication" : "user '" + user + "' (BasicAuth)";
  }
}
