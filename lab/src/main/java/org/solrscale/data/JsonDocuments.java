package org.solrscale.data;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Between JSON objects and documents: scalars and arrays of scalars are field values, objects under
 * {@link Document#CHILDREN} child documents.
 */
final class JsonDocuments {
  private JsonDocuments() {}

  /** The longest string value read, in characters: Jackson's default (20 M) is raised to this. */
  static final int MAX_STRING = 256 << 20;

  /**
   * Reads decimals exactly, so that one a double cannot hold is kept digit for digit; a duplicate
   * key is an error (else the last one silently wins).
   */
  static ObjectMapper mapper() {
    JsonFactory f =
        JsonFactory.builder()
            .streamReadConstraints(
                StreamReadConstraints.builder().maxStringLength(MAX_STRING).build())
            .build();
    ObjectMapper m = new ObjectMapper(f);
    m.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    // else the last wins; checked by the tree, not the parser, so that the parser stays usable
    // and a JSON array reads on after the object that had it
    m.enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);
    m.setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));
    return m;
  }

  /** The document of a JSON object; throws with a one-line reason if it is not one. */
  static Document fromObject(JsonNode node) {
    if (!node.isObject()) {
      throw new IllegalArgumentException(
          "expected a JSON object, found " + node.getNodeType().toString().toLowerCase());
    }
    Document d = new Document();
    Iterator<Map.Entry<String, JsonNode>> it = node.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> f = it.next();
      JsonNode v = f.getValue();
      if (loneSurrogate(f.getKey()) >= 0) {
        throw new IllegalArgumentException(
            "a field name holds a lone surrogate (half a character): "
                + "fix the escape in the input");
      }
      if (Document.CHILDREN.equals(f.getKey())) {
        for (JsonNode c : v.isArray() ? v : List.of(v)) {
          if (!c.isObject()) {
            throw new IllegalArgumentException(
                Document.CHILDREN
                    + " holds a "
                    + c.getNodeType().toString().toLowerCase()
                    + "; it takes child documents (objects)");
          }
          d.addChild(fromObject(c));
        }
      } else if (v.isArray()) {
        for (JsonNode e : v) {
          d.add(f.getKey(), scalar(f.getKey(), e));
        }
      } else if (!v.isNull()) {
        d.add(f.getKey(), scalar(f.getKey(), v));
      }
    }
    return d;
  }

  private static Object scalar(String field, JsonNode v) {
    if (v.isTextual()) {
      int bad = loneSurrogate(v.textValue());
      if (bad >= 0) {
        throw new IllegalArgumentException(
            String.format(
                "field '%s' holds a lone surrogate "
                    + "(\\u%04X), which is half a character: fix the escape in the input",
                field, (int) v.textValue().charAt(bad)));
      }
      return v.textValue();
    }
    if (v.isBoolean()) {
      return v.booleanValue();
    }
    if (v.isIntegralNumber()) {
      return v.canConvertToLong() ? (Object) v.longValue() : v.bigIntegerValue();
    }
    if (v.isNumber()) { // a double when it holds the value exactly, else the decimal as written
      BigDecimal exact = v.decimalValue();
      double d = exact.doubleValue();
      return Double.isFinite(d) && new BigDecimal(Double.toString(d)).compareTo(exact) == 0
          ? (Object) d
          : exact;
    }
    throw new IllegalArgumentException(
        "field '"
            + field
            + "' holds a nested "
            + v.getNodeType().toString().toLowerCase()
            + "; only values and lists of values are supported "
            + "(child documents go under "
            + Document.CHILDREN
            + ")");
  }

  private static final Pattern DUPLICATE =
      Pattern.compile("Duplicate field '(.*)' for `ObjectNode`");

  /** Jackson's reason in one line, without its internals; "malformed JSON" unless it is a limit. */
  private static final Pattern NUMBER =
      Pattern.compile("Value \"(.*)\" can not be deserialized as `[^`]*`, reason:\\s*(.*?)\\.?");

  /** Why a number could not be read (Jackson's wording names Java types). */
  static String why(NumberFormatException e) {
    Matcher m = NUMBER.matcher(String.valueOf(e.getMessage()));
    return m.matches()
        ? "the number "
            + m.group(1)
            + " is out of range ("
            + m.group(2).toLowerCase(Locale.ROOT)
            + "): no Java or Solr number type holds it"
        : "a number out of range: " + e.getMessage();
  }

  private static final Pattern NON_NUMERIC = Pattern.compile("Non-standard token '([-+]?\\w+)'");

  static String why(JsonProcessingException e) {
    String m =
        JsonLinesReader.firstLine(e.getOriginalMessage())
            .replaceAll(
                "\\s*\\(?(?:start marker )?at \\[Source: [^\\]]*\\]\\)?", "") // Jackson's internals
            // its settings, which a user cannot change: "enable `JsonReadFeature...` to allow"
            .replaceAll(":? ?enable `[^`]*` to allow", "")
            .replaceAll(
                "\\(not recognized as one since Feature '[^']*' not enabled for parser\\)",
                "(JSON has none)");
    Matcher dup = DUPLICATE.matcher(m);
    if (dup.lookingAt()) {
      return "duplicate key '"
          + dup.group(1)
          + "': a JSON object names it twice, and one value "
          + "would be lost (give a list for several values)";
    }
    // "Non-standard token 'NaN': enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow"
    Matcher nonNumeric = NON_NUMERIC.matcher(m);
    if (nonNumeric.lookingAt()) {
      return "malformed JSON: "
          + nonNumeric.group(1)
          + " is not a JSON number (neither Solr nor "
          + "JSON has NaN or Infinity): write null, or leave the field out";
    }
    if (e instanceof StreamConstraintsException) { // e.g. "String value length (N) exceeds ..."
      return "beyond what solrscale reads: " + m.replaceAll(", from `[^`]*`", "");
    }
    return "malformed JSON: " + m;
  }

  /** The index of the first surrogate that is not half of a pair, or -1. */
  static int loneSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }

  static void write(JsonGenerator g, Document d) throws IOException {
    g.writeStartObject();
    for (Map.Entry<String, List<Object>> f : d.fields().entrySet()) {
      g.writeFieldName(f.getKey());
      List<Object> vs = f.getValue();
      if (vs.size() == 1) {
        writeValue(g, vs.get(0));
      } else {
        g.writeStartArray();
        for (Object v : vs) {
          writeValue(g, v);
        }
        g.writeEndArray();
      }
    }
    if (!d.children().isEmpty()) {
      g.writeArrayFieldStart(Document.CHILDREN);
      for (Document c : d.children()) {
        write(g, c);
      }
      g.writeEndArray();
    }
    g.writeEndObject();
  }

  private static void writeValue(JsonGenerator g, Object v) throws IOException {
    if (v instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (v instanceof Long l) {
      g.writeNumber(l);
    } else if (v instanceof Double x) {
      g.writeNumber(x);
    } else if (v instanceof BigInteger bi) {
      g.writeNumber(bi);
    } else if (v instanceof BigDecimal bd) {
      g.writeNumber(bd);
    } else {
      g.writeString(String.valueOf(v));
    }
  }
}
