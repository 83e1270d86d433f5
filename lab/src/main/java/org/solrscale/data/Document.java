package org.solrscale.data;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One document of a corpus: fields in the order they came, each with one or more values (strings,
 * numbers or booleans, as the format gave them).
 */
public final class Document {
  private final Map<String, List<Object>> fields = new LinkedHashMap<>();

  public Document add(String name, Object value) {
    fields.computeIfAbsent(name, n -> new ArrayList<>(1)).add(value);
    return this;
  }

  public Map<String, List<Object>> fields() {
    return Collections.unmodifiableMap(fields);
  }

  /** The first value of a field as text, or null. */
  public String first(String name) {
    List<Object> v = fields.get(name);
    return v == null || v.isEmpty() ? null : String.valueOf(v.get(0));
  }

  /** The document with every value as text: what survives a trip through any format. */
  public Map<String, List<String>> asText() {
    Map<String, List<String>> text = new LinkedHashMap<>();
    fields.forEach((k, vs) -> text.put(k, vs.stream().map(String::valueOf).toList()));
    return text;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Document d && d.fields.equals(fields);
  }

  @Override
  public int hashCode() {
    return fields.hashCode();
  }

  @Override
  public String toString() {
    return fields.toString();
  }
}
