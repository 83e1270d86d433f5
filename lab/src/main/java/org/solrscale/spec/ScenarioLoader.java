package org.solrscale.spec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a scenario (YAML, errors as file:line:column) and expands its matrix into combinations:
 * the cartesian product of the matrix's values, in the order written (the last key varies
 * fastest), each one the scenario with those values put in place.
 */
public final class ScenarioLoader {
  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final List<String> STEP_KINDS = List.of("index", "bench", "wait", "restart", "collection");

  /** One point of the matrix: an id (c001...), the values that made it, and its scenario. */
  public record Combination(String id, Map<String, Object> params, ScenarioSpec spec) {
    /** The params as one label, e.g. {@code nodes=2,bench.threads=4}. */
    public String label() {
      List<String> parts = new ArrayList<>();
      params.forEach((k, v) -> parts.add(k + "=" + v));
      return String.join(",", parts);
    }
  }

  private ScenarioLoader() {}

  /** The scenario's text and its combinations, every one bound and checked. */
  public record Loaded(String text, ScenarioSpec base, List<Combination> combinations) {}

  public static Loaded load(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw SolrscaleException.usage("scenario file " + file + " does not exist");
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot read scenario file " + file + ": " + e.getMessage());
    }
    return parse(text, file.toString());
  }

  public static Loaded parse(String text, String source) {
    if (text.isBlank()) {
      throw SolrscaleException.usage(source + ": the scenario is empty");
    }
    ScenarioSpec base;
    JsonNode tree;
    try {
      base = YAML.readValue(text, ScenarioSpec.class);
      tree = YAML.readTree(text);
    } catch (JsonProcessingException e) {
      throw SolrscaleException.usage(SpecLoader.describe(e, text, source));
    }
    check(base, source, "");
    return new Loaded(text, base, expand(tree, base, source));
  }

  static List<Combination> expand(JsonNode tree, ScenarioSpec base, String source) {
    List<String> keys = new ArrayList<>(base.matrix().keySet());
    List<Combination> out = new ArrayList<>();
    int total = 1;
    for (String k : keys) {
      List<Object> values = base.matrix().get(k);
      if (values == null || values.isEmpty()) {
        throw SolrscaleException.usage(source + ": matrix key '" + k + "' needs a list of values");
      }
      total *= values.size();
    }
    for (int n = 0; n < total; n++) {
      Map<String, Object> params = new LinkedHashMap<>();
      int rest = n;
      for (int k = keys.size() - 1; k >= 0; k--) {
        List<Object> values = base.matrix().get(keys.get(k));
        params.put(keys.get(k), values.get(rest % values.size()));
        rest /= values.size();
      }
      Map<String, Object> ordered = new LinkedHashMap<>();
      keys.forEach(k -> ordered.put(k, params.get(k)));
      ObjectNode copy = tree.deepCopy();
      copy.remove("matrix");
      ordered.forEach((k, v) -> apply(copy, k, YAML.valueToTree(v), source));
      ScenarioSpec spec;
      try {
        spec = YAML.treeToValue(copy, ScenarioSpec.class);
      } catch (JsonProcessingException e) {
        throw SolrscaleException.usage(source + ": matrix combination " + ordered + ": "
            + e.getOriginalMessage());
      }
      String where = "matrix combination " + ordered + ": ";
      check(spec, source, where);
      out.add(new Combination(String.format("c%03d", n + 1), ordered, spec));
    }
    return out;
  }

  /**
   * Puts {@code value} at {@code path}: {@code cluster.F}, {@code collection.F} (every collection),
   * {@code KIND.F} (every step of a kind), {@code KIND.NAME.F} (the step of that kind and name), or
   * any other dotted path into the scenario (list elements by index).
   */
  static void apply(ObjectNode root, String path, JsonNode value, String source) {
    String[] p = path.split("\\.");
    if (p[0].equals("collection") && p.length == 2) {
      for (JsonNode c : root.path("cluster").path("collections")) {
        ((ObjectNode) c).set(p[1], value);
      }
      return;
    }
    if (STEP_KINDS.contains(p[0]) && (p.length == 2 || p.length == 3)) {
      int hits = 0;
      for (JsonNode step : root.path("steps")) {
        JsonNode body = step.get(p[0]);
        if (body instanceof ObjectNode o && (p.length == 2 || p[1].equals(o.path("name").asText(p[0])))) {
          o.set(p[p.length - 1], value);
          hits++;
        }
      }
      if (hits == 0) {
        throw SolrscaleException.usage(source + ": matrix key '" + path + "' matches no "
            + p[0] + " step" + (p.length == 3 ? " named " + p[1] : ""));
      }
      return;
    }
    JsonNode at = root;
    for (int i = 0; i < p.length - 1; i++) {
      JsonNode next = at.isArray() ? at.path(parseIndex(p[i], path, source)) : at.path(p[i]);
      if (next.isMissingNode()) {
        if (at instanceof ObjectNode o) {
          next = o.putObject(p[i]);
        } else {
          throw SolrscaleException.usage(source + ": matrix key '" + path + "' does not lead anywhere");
        }
      }
      at = next;
    }
    String last = p[p.length - 1];
    if (at instanceof ObjectNode o) {
      o.set(last, value);
    } else if (at instanceof ArrayNode a) {
      a.set(parseIndex(last, path, source), value);
    } else {
      throw SolrscaleException.usage(source + ": matrix key '" + path + "' does not lead to a setting");
    }
  }

  private static int parseIndex(String s, String path, String source) {
    try {
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      throw SolrscaleException.usage(source + ": matrix key '" + path + "': '" + s + "' is not a list index");
    }
  }

  /** The rules a scenario must follow besides its cluster spec's. */
  static void check(ScenarioSpec s, String source, String where) {
    if (s.cluster() == null) {
      throw SolrscaleException.usage(source + ": " + where + "a scenario needs a 'cluster' (see docs/cluster-spec.md)");
    }
    for (Problem p : SpecValidator.validate(s.cluster().name() == null ? s.cluster().withName("scenario") : s.cluster())) {
      if (p.error()) {
        throw SolrscaleException.usage(source + ": " + where + p.message());
      }
    }
    if (s.repeat() < 1) {
      throw SolrscaleException.usage(source + ": " + where + "repeat must be at least 1");
    }
    if (s.steps().isEmpty()) {
      throw SolrscaleException.usage(source + ": " + where + "a scenario needs steps (index, bench, ...)");
    }
    List<String> collections = s.cluster().collections().stream().map(CollectionSpec::name).toList();
    for (int at = 0; at < s.steps().size(); at++) {
      StepSpec step = s.steps().get(at);
      if (step instanceof StepSpec.Fault f) {
        checkFault(f, source + ": " + where);
        if (s.steps().subList(at + 1, s.steps().size()).stream().allMatch(x -> x instanceof StepSpec.Fault)) {
          throw SolrscaleException.usage(source + ": " + where + "fault step '" + f.name()
              + "' runs alongside the step after it, and there is none; add an index, bench or chaos step after it");
        }
      }
      if (step instanceof StepSpec.Bench b && (b.threads() == null) == (b.rate() == null)) {
        throw SolrscaleException.usage(source + ": " + where + "bench step '" + b.name()
            + "' needs exactly one of threads or rate");
      }
      String c = step instanceof StepSpec.Bench b ? b.collection()
          : step instanceof StepSpec.Index i ? i.collection() : null;
      if (step instanceof StepSpec.Chaos ch) {
        c = ch.collection();
      }
      if ((step instanceof StepSpec.Bench || step instanceof StepSpec.Index || step instanceof StepSpec.Chaos)
          && (c == null ? collections.isEmpty() : false)) {
        throw SolrscaleException.usage(source + ": " + where + step.kind() + " step '" + step.name()
            + "' needs a collection, and the cluster defines none");
      }
    }
    if (s.steps().stream().anyMatch(st -> st instanceof StepSpec.Index i && i.files().isEmpty())
        && s.data().files().isEmpty() && s.data().synth() == null) {
      throw SolrscaleException.usage(source + ": " + where + "an index step needs data: files or synth");
    }
  }

  private static void checkFault(StepSpec.Fault f, String where) {
    String problem = f.problem();
    if (problem != null) {
      throw SolrscaleException.usage(where + "fault step '" + f.name() + "': " + problem);
    }
  }

  /** Whether two scenarios deploy the same cluster (so a run can keep it between them). */
  public static boolean sameTopology(ScenarioSpec a, ScenarioSpec b) {
    return YAML.valueToTree(a.cluster()).equals(YAML.valueToTree(b.cluster()));
  }
}
