package org.solrscale.spec;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** Reads cluster specs from YAML, turning every parse problem into a file:line:column message. */
public final class SpecLoader {
  static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory())
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private SpecLoader() {}

  public static ClusterSpec load(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw SolrscaleException.usage("spec file " + file + " does not exist");
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot read spec file " + file + ": " + e.getMessage());
    }
    return parse(text, file.toString());
  }

  /** Parses YAML text; {@code source} names it in error messages. */
  public static ClusterSpec parse(String text, String source) {
    if (text.isBlank()) {
      throw SolrscaleException.usage(source + ": the spec is empty; see docs/cluster-spec.md");
    }
    try {
      ClusterSpec spec = YAML.readValue(text, ClusterSpec.class);
      if (spec == null) {
        throw SolrscaleException.usage(source + ": the spec is empty; see docs/cluster-spec.md");
      }
      return spec;
    } catch (JsonProcessingException e) {
      throw SolrscaleException.usage(describe(e, text, source));
    }
  }

  static String describe(JsonProcessingException e, String text, String source) {
    String syntax = YamlSyntax.describe(e);
    if (syntax != null) {
      return source + ":" + syntax;
    }
    JsonLocation at = e.getLocation();
    String where = at == null ? source : source + ":" + at.getLineNr() + ":" + at.getColumnNr();
    if (e instanceof JsonMappingException m && !m.getPath().isEmpty()) {
      // Jackson reports where it stopped reading; point at the key the user wrote instead
      YamlPlaces places = new YamlPlaces(text, source, YAML);
      String found = places.where(YamlPlaces.pointer(m, readTree(text)));
      where = found.equals(source) ? where : found;
    }
    if (e instanceof UnrecognizedPropertyException u) {
      String known =
          u.getKnownPropertyIds().stream()
              .map(Object::toString)
              .sorted()
              .collect(Collectors.joining(", "));
      return where
          + ": unknown key '"
          + u.getPropertyName()
          + "'"
          + inPath(u, 1)
          + " (known keys: "
          + known
          + ")";
    }
    if (e instanceof InvalidTypeIdException t) {
      var known = Pattern.compile("known type ids = \\[([^]]*)]").matcher(t.getOriginalMessage());
      return where
          + ": '"
          + t.getTypeId()
          + "' is not a kind of step"
          + inPath(t)
          + (known.find() ? "; use one of " + known.group(1) : "");
    }
    if (e instanceof InvalidFormatException f) {
      return where + ": '" + f.getValue() + "' is not a valid " + simpleType(f) + inPath(f);
    }
    if (e instanceof MismatchedInputException m) {
      return where + ": expected " + simpleType(m) + inPath(m) + " (" + firstLine(m) + ")";
    }
    if (e instanceof ValueInstantiationException v
        && v.getCause() != null
        && v.getCause().getMessage() != null) {
      return where
          + ": "
          + v.getCause().getMessage(); // a record's own check, e.g. a fault without a kind
    }
    return where + ": " + firstLine(e);
  }

  /** The text as a tree, or null when it does not parse. */
  static JsonNode readTree(String text) {
    try {
      return YAML.readTree(text);
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  private static String inPath(JsonMappingException e) {
    return inPath(e, 0);
  }

  private static String inPath(JsonMappingException e, int dropLast) {
    var refs = e.getPath();
    String path =
        refs.subList(0, Math.max(0, refs.size() - dropLast)).stream()
            .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
            .collect(Collectors.joining("."))
            .replace(".[", "[");
    return path.isEmpty() ? "" : " at " + path;
  }

  private static String simpleType(MismatchedInputException e) {
    Class<?> type = e.getTargetType();
    if (type == null) {
      return "value";
    }
    if (type == Integer.class || type == int.class || type == Long.class) {
      return "number";
    }
    if (Collection.class.isAssignableFrom(type)) {
      return "list";
    }
    if (type == String.class) {
      return "string";
    }
    if (Map.class.isAssignableFrom(type) || type.isRecord()) {
      return "mapping of keys";
    }
    return type.getSimpleName();
  }

  private static String firstLine(JsonProcessingException e) {
    String message = e.getOriginalMessage();
    if (message == null) {
      return e.getClass().getSimpleName();
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message.trim() : message.substring(0, newline).trim();
  }
}
