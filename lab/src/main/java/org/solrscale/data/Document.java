package org.solrscale.data;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One document of a corpus: fields in the order they came, each with one or more values (strings,
 * numbers or booleans, as the format gave them), and its nested child documents if it has any
 * (Solr's anonymous children: {@code <doc>} inside {@code <doc>}, {@code _childDocuments_} in
 * JSON).
 */
public final class Document {
  /** The JSON key of a document's children, as Solr's JSON update format names it. */
  public static final String CHILDREN = "_childDocuments_";

  private final Map<String, List<Object>> fields = new LinkedHashMap<>();
  private List<Document> children = List.of();

  public Document add(String name, Object value) {
    fields.computeIfAbsent(name, n -> new ArrayList<>(1)).add(value);
    return this;
  }

  public Document addChild(Document child) {
    if (children.isEmpty()) {
      children = new ArrayList<>(2);
    }
    children.add(child);
    return this;
  }

  public List<Document> children() {
    return Collections.unmodifiableList(children);
  }

  /** This document and all its descendants: what Solr counts. */
  public long size() {
    long n = 1;
    for (Document c : children) {
      n += c.size();
    }
    return n;
  }

  public Map<String, List<Object>> fields() {
    return Collections.unmodifiableMap(fields);
  }

  /** The first value of a field as text, or null. */
  public String first(String name) {
    List<Object> v = fields.get(name);
    return v == null || v.isEmpty() ? null : String.valueOf(v.get(0));
  }

  /**
   * The document with every value as text: what survives a trip through any format (children, if
   * any, as the text of each under {@link #CHILDREN}).
   */
  public Map<String, List<String>> asText() {
    Map<String, List<String>> text = new LinkedHashMap<>();
    fields.forEach((k, vs) -> text.put(k, vs.stream().map(String::valueOf).toList()));
    if (!children.isEmpty()) {
      text.put(CHILDREN, children.stream().map(c -> c.asText().toString()).toList());
    }
    return text;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Document d && d.fields.equals(fields) && d.children.equals(children);
  }

  @Override
  public int hashCode() {
    return fields.hashCode() * 31 + children.hashCode();
  }

  @Override
  public String toString() {
    return children.isEmpty() ? fields.toString() : fields + " " + CHILDREN + "=" + children;
  }
}
