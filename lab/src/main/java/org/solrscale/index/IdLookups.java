package org.solrscale.index;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.request.QueryRequest;
import org.apache.solr.client.solrj.response.FacetField;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.params.ModifiableSolrParams;

/** Asks the collection which ids it holds and how large the families under them are. */
final class IdLookups {
  private final SolrClient client;
  private final String collection;

  IdLookups(SolrClient client, String collection) {
    this.client = client;
    this.collection = collection;
  }

  /** Which of these ids the collection holds, uncommitted documents included (real-time get). */
  List<String> found(Collection<String> ids) throws SolrServerException, IOException {
    List<String> found = new ArrayList<>();
    for (SolrDocument d : realTimeGet(ids, "id")) {
      found.add(String.valueOf(d.getFirstValue("id")));
    }
    return found;
  }

  /**
   * The family size (root and children) of the current version of each of these ids, uncommitted
   * ones included: asked of the update log, which makes Solr open a real-time searcher when an id
   * is in it.
   */
  Map<String, Long> liveFamilySizes(Collection<String> ids)
      throws SolrServerException, IOException {
    Map<String, Long> sizes = new HashMap<>();
    // every top-level field, so that labelled children (a schema with _nest_path_) pass fl
    for (SolrDocument d : realTimeGet(ids, "*,[child limit=-1]")) {
      sizes.put(String.valueOf(d.getFirstValue("id")), 1 + descendants(d));
    }
    return sizes;
  }

  /**
   * The documents with these ids, uncommitted ones included (real-time get), with fields {@code
   * fl}.
   */
  private List<SolrDocument> realTimeGet(Collection<String> ids, String fl)
      throws SolrServerException, IOException {
    ModifiableSolrParams get = new ModifiableSolrParams();
    get.set("fl", fl);
    ids.forEach(id -> get.add("id", id));
    QueryRequest rtg = new QueryRequest(get, SolrRequest.METHOD.POST);
    rtg.setPath("/get");
    QueryResponse answer = rtg.process(client, collection);
    // one id gives {"doc": ...} (null if absent), several a document list
    return answer.getResults() != null
        ? answer.getResults()
        : answer.getResponse().get("doc") instanceof SolrDocument one ? List.of(one) : List.of();
  }

  /** The documents below this one: anonymous children and labelled ones, at any depth. */
  static long descendants(SolrDocument d) {
    long n = 0;
    if (d.getChildDocuments() != null) {
      for (SolrDocument c : d.getChildDocuments()) {
        n += 1 + descendants(c);
      }
    }
    for (String field : d.getFieldNames()) {
      for (Object v : d.getFieldValues(field)) {
        if (v instanceof SolrDocument c) {
          n += 1 + descendants(c);
        }
      }
    }
    return n;
  }

  /** The size (root and children) of the committed families among these root ids, if any. */
  Map<String, Long> familySizes(List<String> roots) {
    Map<String, Long> sizes = new HashMap<>();
    if (roots.isEmpty()) {
      return sizes;
    }
    try {
      SolrQuery q = new SolrQuery("{!terms f=_root_ separator=$sep v=$roots}").setRows(0);
      q.set("sep", "\u001f");
      q.set("shards.preference", BulkIndexer.LEADERS);
      q.set("roots", String.join("\u001f", roots));
      q.setFacet(true).addFacetField("_root_").setFacetLimit(-1).setFacetMinCount(2);
      FacetField f = client.query(collection, q, SolrRequest.METHOD.POST).getFacetField("_root_");
      if (f != null) {
        f.getValues().forEach(c -> sizes.put(c.getName(), c.getCount()));
      }
    } catch (SolrServerException | IOException | RuntimeException e) {
      // no _root_ field: no families; the old documents count one each
    }
    return sizes;
  }
}
