package org.solrscale.cluster;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;

/**
 * Who solrscale is to Solr: nobody ({@link #NONE}, a cluster without authentication) or a user with
 * its password for Solr's BasicAuth. Every client solrscale makes (SolrJ, its own HTTP calls, the
 * load driver) takes one. The password never appears in {@link #toString()}, so an Access may be
 * logged or put into a message safely.
 */
public final class Access {
  public static final Access NONE = new Access(null, null);

  private final String user;
  private final String password;

  private Access(String user, String password) {
    this.user = user;
    this.password = password;
  }

  /** BasicAuth as {@code user} with {@code password}. */
  public static Access basic(String user, String password) {
    if (user == null || user.isBlank() || password == null) {
      throw new IllegalArgumentException("a user and a password");
    }
    return new Access(user, password);
  }

  /** A routing client's builder over {@code urls}, sending these credentials. */
  public CloudHttp2SolrClient.Builder cloud(List<String> urls) {
    return new CloudHttp2SolrClient.Builder(urls)
        .withInternalClientBuilder(apply(new Http2SolrClient.Builder()));
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
    return user == null ? builder : builder.withBasicAuthCredentials(user, password);
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
