package org.solrscale.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.solrscale.cluster.Access;
import org.solrscale.cluster.SolrHttp;
import org.solrscale.spec.SolrscaleException;

/**
 * Whether a collection's schema takes the chaos workload's documents (by default {@code id}, {@code
 * chaos_seq_l}, {@code chaos_run_s}; else the fields of a {@link DocTemplate}), read through the
 * Schema API before any load, so that a collection that would refuse every write is named in one
 * line instead of a run of refusals.
 */
final class ChaosSchema {
  private ChaosSchema() {}

  /** Fails in one line, naming what is missing, unless {@code collection} takes the documents. */
  static void require(String baseUrl, String collection, Access access, DocTemplate template) {
    SolrHttp.Reply r =
        new SolrHttp(access)
            .get(baseUrl + "/" + collection + "/schema?wt=json", Duration.ofSeconds(30));
    if (!r.ok()) {
      throw SolrscaleException.failed(
          "cannot read the schema of " + collection + " (Schema API): " + r.message());
    }
    List<String> problems = problems(r.body().path("schema"), template.fields());
    if (!problems.isEmpty()) {
      throw SolrscaleException.usage(
          "collection "
              + collection
              + " cannot take the chaos workload's documents: "
              + String.join("; ", problems)
              + (template == DocTemplate.DEFAULT
                  ? "; give --doc-template FILE with a document it takes, or leave out --into to"
                      + " write into a scratch collection shaped like it"
                  : "; change " + template.source().replaceAll(": $", "")));
    }
  }

  /** What a schema (the Schema API's "schema" object) lacks for the workload's documents. */
  static List<String> problems(JsonNode schema, List<String> fields) {
    List<String> out = new ArrayList<>();
    String key = schema.path("uniqueKey").asText("id");
    if (!key.equals("id")) {
      out.add("its uniqueKey is '" + key + "', the workload's ids go in 'id'");
    }
    List<String> missing = new ArrayList<>();
    for (String f : fields) {
      if (!f.equals("id") && !hasField(schema, f)) {
        missing.add(f);
      }
    }
    if (!missing.isEmpty()) {
      out.add("no field or dynamic field for " + String.join(", ", missing));
    }
    List<String> required = new ArrayList<>();
    for (JsonNode f : schema.path("fields")) {
      String name = f.path("name").asText();
      if (f.path("required").asBoolean()
          && !f.has("default")
          && !name.equals(key)
          && !fields.contains(name)) {
        required.add(name);
      }
    }
    if (!required.isEmpty()) {
      out.add("required without a default: " + String.join(", ", required));
    }
    return out;
  }

  private static boolean hasField(JsonNode schema, String name) {
    for (JsonNode f : schema.path("fields")) {
      if (f.path("name").asText().equals(name)) {
        return true;
      }
    }
    for (JsonNode f : schema.path("dynamicFields")) {
      String p = f.path("name").asText();
      if (p.startsWith("*") && name.endsWith(p.substring(1))
          || p.endsWith("*") && name.startsWith(p.substring(0, p.length() - 1))) {
        return true;
      }
    }
    return false;
  }
}
