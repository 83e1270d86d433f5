package org.solrscale.chaos;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.solrscale.spec.SolrscaleException;

/**
 * The shape of the chaos workload's documents: a JSON object whose string values may hold {@code
 * {{id}}} (the document's unique id, required as the whole value of {@code id}), {@code {{seq}}}
 * (its sequence number; a value that is exactly {@code "{{seq}}"} becomes a number) and {@code
 * {{run}}} (the run's id prefix). The default writes {@code id}, {@code chaos_seq_l} and {@code
 * chaos_run_s}; {@code --doc-template FILE} supplies one that a strict schema takes.
 */
public final class DocTemplate {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String ID = "{{id}}";
  static final String SEQ = "{{seq}}";
  static final String RUN = "{{run}}";

  /** id, chaos_seq_l and chaos_run_s: what a schema with Solr's default dynamic fields takes. */
  public static final DocTemplate DEFAULT =
      parse("{\"id\":\"{{id}}\",\"chaos_seq_l\":\"{{seq}}\",\"chaos_run_s\":\"{{run}}\"}", "");

  private final ObjectNode template;
  private final String source;

  private DocTemplate(ObjectNode template, String source) {
    this.template = template;
    this.source = source;
  }

  /** Reads {@code file}; a one-line usage error when it is not a template chaos can use. */
  public static DocTemplate read(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot read --doc-template " + file + ": " + e.getMessage());
    }
    return parse(text, "--doc-template " + file + ": ");
  }

  static DocTemplate parse(String text, String where) {
    JsonNode root;
    try {
      root = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      // the place in the file as file:line:column, like every refusal about a file
      String at =
          e.getLocation() == null || !where.endsWith(": ")
              ? where
              : where.substring(0, where.length() - 2)
                  + ":"
                  + e.getLocation().getLineNr()
                  + ":"
                  + e.getLocation().getColumnNr()
                  + ": ";
      throw SolrscaleException.usage(
          at + "not JSON (" + e.getOriginalMessage() + "); give one document as a JSON object");
    }
    if (root == null || !root.isObject()) {
      throw SolrscaleException.usage(
          where
              + "give one document as a JSON object, e.g. "
              + "{\"id\": \"{{id}}\", \"title\": \"chaos {{seq}}\"}");
    }
    if (!ID.equals(root.path("id").asText(null))) {
      throw SolrscaleException.usage(
          where + "its \"id\" must be \"{{id}}\": the checks find every written document by it");
    }
    return new DocTemplate((ObjectNode) root, where);
  }

  /** The top-level field names of a document (for the schema check). */
  public List<String> fields() {
    List<String> out = new ArrayList<>();
    template.fieldNames().forEachRemaining(out::add);
    return out;
  }

  /** Where the template came from, for messages ("" for the default). */
  String source() {
    return source;
  }

  /** One document, as JSON. */
  String render(String id, long seq, String run) {
    return JSON.valueToTree(fill(template, id, seq, run)).toString();
  }

  private static JsonNode fill(JsonNode node, String id, long seq, String run) {
    if (node.isTextual()) {
      String s = node.asText();
      if (s.equals(SEQ)) {
        return JSON.getNodeFactory().numberNode(seq);
      }
      return JSON.getNodeFactory()
          .textNode(s.replace(ID, id).replace(SEQ, Long.toString(seq)).replace(RUN, run));
    }
    if (node.isObject()) {
      ObjectNode out = JSON.createObjectNode();
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        out.set(e.getKey(), fill(e.getValue(), id, seq, run));
      }
      return out;
    }
    if (node.isArray()) {
      var out = JSON.createArrayNode();
      node.forEach(n -> out.add(fill(n, id, seq, run)));
      return out;
    }
    return node;
  }
}
