package org.solrscale.spec;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Where each key and list element of a YAML text starts, by JSON pointer, so that a message about a
 * setting names its {@code file:line:column}. Read once, with the text's own parser.
 */
public final class YamlPlaces {
  private final String source;
  private final Map<String, JsonLocation> places = new HashMap<>();

  YamlPlaces(String text, String source, ObjectMapper yaml) {
    this.source = source;
    try (JsonParser p = yaml.getFactory().createParser(text)) {
      for (JsonToken t; (t = p.nextToken()) != null; ) {
        if (t == JsonToken.FIELD_NAME) {
          JsonPointer at = p.getParsingContext().pathAsPointer();
          places.putIfAbsent(at.toString(), p.currentTokenLocation());
        } else if (t.isScalarValue() || t.isStructStart()) {
          var context =
              t.isStructStart() ? p.getParsingContext().getParent() : p.getParsingContext();
          if (context != null && context.inArray()) {
            places.putIfAbsent(context.pathAsPointer().toString(), p.currentTokenLocation());
          }
        }
      }
    } catch (IOException e) {
      // a text that does not parse has no places; its syntax error is reported on its own
    }
  }

  /** The text's name (a file name) for messages. */
  public String source() {
    return source;
  }

  /**
   * {@code file:line:column} of the setting at {@code pointer}, or of the nearest enclosing one
   * written in the text (a default that was not written), or the file name alone.
   */
  public String where(String pointer) {
    for (String p = pointer; ; p = parent(p)) {
      JsonLocation l = places.get(p);
      if (l != null) {
        return source + ":" + l.getLineNr() + ":" + l.getColumnNr();
      }
      if (p.isEmpty()) {
        return source;
      }
    }
  }

  /** The message with the place of its setting in front. */
  public String message(Problem p) {
    return where(p.path()) + ": " + p.message();
  }

  /**
   * The pointer of a Jackson error's path in {@code tree} (the document as read). Jackson leaves
   * out the key that names a step's kind ({@code steps[2].duration} for {@code - bench: {duration:
   * ...}}): where a segment is not found in a mapping of one key, it is looked for under that key.
   */
  public static String pointer(JsonMappingException e, JsonNode tree) {
    StringBuilder at = new StringBuilder();
    JsonNode node = tree;
    for (JsonMappingException.Reference r : e.getPath()) {
      if (r.getFieldName() != null
          && node != null
          && node.isObject()
          && !node.has(r.getFieldName())
          && node.size() == 1
          && node.elements().next().isObject()) {
        String wrapper = node.fieldNames().next();
        at.append('/').append(escape(wrapper));
        node = node.get(wrapper);
      }
      if (r.getFieldName() != null) {
        at.append('/').append(escape(r.getFieldName()));
        node = node == null ? null : node.get(r.getFieldName());
      } else {
        at.append('/').append(r.getIndex());
        node = node == null ? null : node.get(r.getIndex());
      }
    }
    return at.toString();
  }

  /** A pointer segment for a key: '~' and '/' escaped as RFC 6901 wants. */
  public static String escape(String key) {
    return key.replace("~", "~0").replace("/", "~1");
  }

  private static String parent(String pointer) {
    int slash = pointer.lastIndexOf('/');
    return slash <= 0 ? "" : pointer.substring(0, slash);
  }
}
