package org.solrscale.cluster;

import java.time.Duration;
import org.solrscale.spec.SolrscaleException;

/**
 * What a command asks of a collection before it writes, so that a mistake is one line before any
 * work instead of thousands of refused documents: whether its user may write, and whether the
 * schema keys documents by {@code id}, as solrscale's indexer and checkers do.
 */
public final class CollectionChecks {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private CollectionChecks() {}

  /**
   * Fails with a one-line usage error when {@code access} may not update {@code collection}: an
   * empty update (a no-op for Solr) is refused with 401 or 403 exactly when every batch would be.
   */
  public static void requireWrite(String baseUrl, String collection, Access access, String what) {
    SolrHttp.Reply r =
        new SolrHttp(access)
            .post(baseUrl + "/" + collection + "/update", "application/json", "[]", TIMEOUT);
    String refused = access.refusal(r.status(), "Solr at " + baseUrl);
    if (refused != null) {
      throw SolrscaleException.usage(what + " writes to " + collection + ": " + refused);
    }
  }

  /**
   * Fails in one line when {@code collection}'s uniqueKey is not {@code id}: solrscale tracks every
   * document by its id field, and would otherwise reject every one as having no id. A schema that
   * cannot be read (an old Solr, a handler switched off) passes: the writes say what is wrong.
   */
  public static void requireIdKey(String baseUrl, String collection, Access access, String what) {
    SolrHttp.Reply r =
        new SolrHttp(access).get(baseUrl + "/" + collection + "/schema/uniquekey?wt=json", TIMEOUT);
    if (!r.ok()) {
      return;
    }
    String key = r.body().path("uniqueKey").asText("id");
    if (!key.equals("id")) {
      throw SolrscaleException.usage(
          what
              + " needs documents keyed by 'id', but the uniqueKey of "
              + collection
              + " is '"
              + key
              + "'; use a collection whose uniqueKey is id (other keys are not supported yet)");
    }
  }
}
