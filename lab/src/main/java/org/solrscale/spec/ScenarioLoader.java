package org.solrscale.spec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
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
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Reads a scenario (YAML) and expands its matrix into combinations: the cartesian product of the
 * matrix's values, in the order written (the last key varies fastest), each one the scenario with
 * those values put in place. Every combination is checked completely here, before anything starts:
 * a mistake is one line with the {@code file:line:column} of the setting (for a value the matrix
 * put there, of that matrix value).
 */
public final class ScenarioLoader {
  static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory())
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  static {
    YAML.registerSubtypes(StepKinds.jsonTypes());
  }

  /** Step kinds a matrix key may start with ({@code KIND.KEY}, {@code KIND.NAME.KEY}). */
  static final List<String> STEP_KINDS = StepKinds.sweepable();

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

  /**
   * The scenario's text, its combinations (every one bound and checked), and where each of its
   * settings is written, for messages about them later (data that does not fit, say).
   */
  public record Loaded(
      String text, ScenarioSpec base, List<Combination> combinations, YamlPlaces places) {}

  /**
   * Where a matrix value was put: the matrix key, where that key is written ({@code /matrix/KEY},
   * or {@code /matrix/I/KEY} in a list of sweeps), the index of the value and the value.
   */
  private record Swept(String key, String at, int index, Object value) {}

  /**
   * One cartesian product of the matrix: its keys and their values, and where it is written ({@code
   * /matrix}, or {@code /matrix/I} for the I-th of a list of sweeps).
   */
  record Sweep(String at, Map<String, List<Object>> values) {}

  public static Loaded load(Path file) {
    return load(file, false);
  }

  /**
   * Reads a scenario file; {@code external}: it runs on a cluster solrscale did not start (its
   * collections are only known at run time, so steps are not checked against them).
   */
  public static Loaded load(Path file, boolean external) {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw SolrscaleException.usage("scenario file " + file + " does not exist");
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot read scenario file " + file + ": " + e.getMessage());
    }
    return parse(text, file.toString(), external);
  }

  public static Loaded parse(String text, String source) {
    return parse(text, source, false);
  }

  public static Loaded parse(String text, String source, boolean external) {
    if (text.isBlank()) {
      throw SolrscaleException.usage(source + ": the scenario is empty");
    }
    ScenarioSpec base;
    JsonNode tree;
    YamlPlaces places = new YamlPlaces(text, source, YAML);
    List<Sweep> sweeps;
    try {
      tree = YAML.readTree(text);
      if (tree == null || tree.isMissingNode() || tree.isNull()) {
        throw SolrscaleException.usage(source + ": the scenario is empty");
      }
      if (!tree.isObject()) {
        throw SolrscaleException.usage(
            source
                + ":1:1: a scenario is a mapping of keys (name, cluster, "
                + "data, steps, matrix, repeat, order); see docs/scenarios.md");
      }
      JsonNode matrix = tree.path("matrix");
      if (matrix.isArray()) {
        // a list of sweeps: the base is read without it, and its matrix is their union
        sweeps = sweeps((ArrayNode) matrix, places);
        ObjectNode withoutMatrix = ((ObjectNode) tree).deepCopy();
        withoutMatrix.remove("matrix");
        ScenarioSpec read = YAML.treeToValue(withoutMatrix, ScenarioSpec.class);
        Map<String, List<Object>> union = new LinkedHashMap<>();
        for (Sweep sw : sweeps) {
          sw.values()
              .forEach(
                  (k, vs) -> {
                    List<Object> all = union.computeIfAbsent(k, x -> new ArrayList<>());
                    vs.stream().filter(v -> !all.contains(v)).forEach(all::add);
                  });
        }
        base =
            new ScenarioSpec(
                read.name(),
                read.cluster(),
                read.data(),
                read.steps(),
                union,
                read.repeat(),
                read.order());
      } else {
        base = YAML.treeToValue(tree, ScenarioSpec.class);
        sweeps = List.of(new Sweep("/matrix", base.matrix()));
      }
    } catch (JsonProcessingException e) {
      throw SolrscaleException.usage(SpecLoader.describe(e, text, source));
    }
    List<Combination> combinations;
    if (base.matrix().isEmpty()) {
      check(base, places, Map.of(), external);
      combinations = List.of(new Combination("c001", new LinkedHashMap<>(), base));
    } else {
      combinations = expand(tree, sweeps, places, external);
    }
    return new Loaded(text, base, combinations, places);
  }

  /** The sweeps of a matrix written as a list: each element a mapping of keys to values. */
  private static List<Sweep> sweeps(ArrayNode matrix, YamlPlaces places) {
    if (matrix.isEmpty()) {
      throw SolrscaleException.usage(
          places.where("/matrix")
              + ": the matrix is an empty list; give sweeps (each a mapping of keys to values)"
              + " or leave the matrix out");
    }
    List<Sweep> out = new ArrayList<>();
    for (int i = 0; i < matrix.size(); i++) {
      String at = "/matrix/" + i;
      JsonNode sweep = matrix.get(i);
      if (!sweep.isObject() || sweep.isEmpty()) {
        throw SolrscaleException.usage(
            places.where(at)
                + ": each element of a matrix list is a sweep: a mapping of keys to lists of"
                + " values, e.g. {cluster.nodes: [1, 2, 4]}");
      }
      Map<String, List<Object>> values = new LinkedHashMap<>();
      for (var f : (Iterable<Map.Entry<String, JsonNode>>) sweep::fields) {
        if (!f.getValue().isArray()) {
          throw SolrscaleException.usage(
              places.where(at + "/" + YamlPlaces.escape(f.getKey()))
                  + ": matrix key '"
                  + f.getKey()
                  + "' needs a list of values");
        }
        List<Object> vs = new ArrayList<>();
        for (JsonNode v : f.getValue()) {
          vs.add(YAML.convertValue(v, Object.class));
        }
        values.put(f.getKey(), vs);
      }
      out.add(new Sweep(at, values));
    }
    return out;
  }

  /**
   * Every combination of every sweep, in the order written; within a sweep the last key varies
   * fastest. A combination names every key of the matrix: a key its sweep does not set takes the
   * scenario's own value. A combination that an earlier sweep already made (the same values) is run
   * once.
   */
  static List<Combination> expand(
      JsonNode tree, List<Sweep> sweeps, YamlPlaces places, boolean external) {
    List<String> allKeys = new ArrayList<>();
    for (Sweep sw : sweeps) {
      sw.values().keySet().stream().filter(k -> !allKeys.contains(k)).forEach(allKeys::add);
    }
    // each sweep's combinations made and checked first, so a mistake in a sweep's own keys is
    // said before a value missing for another's
    record Made(Sweep sweep, Map<String, Object> params, ObjectNode tree, ScenarioSpec spec) {}
    List<Made> made = new ArrayList<>();
    for (Sweep sweep : sweeps) {
      List<String> keys = new ArrayList<>(sweep.values().keySet());
      int total = 1;
      for (String k : keys) {
        List<Object> values = sweep.values().get(k);
        if (values == null || values.isEmpty()) {
          throw SolrscaleException.usage(
              places.where(sweep.at() + "/" + YamlPlaces.escape(k))
                  + ": matrix key '"
                  + k
                  + "' needs a list of values");
        }
        total *= values.size();
      }
      for (int n = 0; n < total; n++) {
        int[] index = new int[keys.size()];
        int rest = n;
        for (int k = keys.size() - 1; k >= 0; k--) {
          index[k] = rest % sweep.values().get(keys.get(k)).size();
          rest /= sweep.values().get(keys.get(k)).size();
        }
        Map<String, Object> params = new LinkedHashMap<>();
        ObjectNode copy = tree.deepCopy();
        copy.remove("matrix");
        Map<String, Swept> sweptAt = new LinkedHashMap<>();
        for (String key : allKeys) {
          String at = sweep.at() + "/" + YamlPlaces.escape(key);
          int k = keys.indexOf(key);
          if (k < 0) {
            params.put(key, null); // the scenario's own value, below
            continue;
          }
          if (external
              && (key.startsWith("cluster.")
                  || key.startsWith("collection.") && key.split("\\.").length == 2)) {
            throw SolrscaleException.usage(
                places.where(at)
                    + ": matrix key '"
                    + key
                    + "' changes what solrscale deploys, and against a SolrCloud it did not start it deploys "
                    + "nothing; run the scenario without --zk/--url to sweep it");
          }
          Object value = sweep.values().get(key).get(index[k]);
          params.put(key, value);
          for (String pointer : apply(copy, key, YAML.valueToTree(value), places.where(at))) {
            sweptAt.put(pointer, new Swept(key, at, index[k], value));
          }
        }
        ScenarioSpec spec;
        try {
          spec = YAML.treeToValue(copy, ScenarioSpec.class);
        } catch (JsonProcessingException e) {
          throw SolrscaleException.usage(matrixError(e, copy, sweptAt, places));
        }
        check(spec, places, sweptAt, external);
        made.add(new Made(sweep, params, copy, spec));
      }
    }
    List<Combination> out = new ArrayList<>();
    List<Map<String, Object>> seen = new ArrayList<>();
    for (Made m : made) {
      m.params()
          .replaceAll(
              (key, v) ->
                  m.sweep().values().containsKey(key)
                      ? v
                      : baseValue(m.tree(), key, places.where(m.sweep().at())));
      if (!seen.contains(m.params())) {
        seen.add(m.params());
        out.add(new Combination(String.format("c%03d", out.size() + 1), m.params(), m.spec()));
      }
    }
    return out;
  }

  /**
   * The scenario's own value at a matrix key (the first place it leads to), for a sweep that does
   * not set it; {@code where} is that sweep's place, for the message when there is none.
   */
  private static Object baseValue(ObjectNode root, String path, String where) {
    String[] p = path.split("\\.");
    JsonNode found = null;
    if (p[0].equals("collection") && p.length == 2) {
      found = root.path("cluster").path("collections").path(0).get(p[1]);
    } else if (STEP_KINDS.contains(p[0]) && (p.length == 2 || p.length == 3)) {
      for (JsonNode step : root.path("steps")) {
        JsonNode body = step.get(p[0]);
        if (body instanceof ObjectNode o && named(o, p)) {
          found = o.get(p[p.length - 1]);
          break;
        }
      }
    } else {
      JsonNode node = root;
      for (String part : p) {
        node =
            node.isArray() && part.matches("\\d+")
                ? node.path(Integer.parseInt(part))
                : node.path(part);
      }
      found = node.isMissingNode() ? null : node;
    }
    if (found == null || found.isNull()) {
      throw SolrscaleException.usage(
          where
              + ": this sweep does not set matrix key '"
              + path
              + "', which another sweep sets, and the scenario gives it no value; write its value"
              + " in the scenario (or in this sweep) so every combination names it");
    }
    return YAML.convertValue(found, Object.class);
  }

  /** A scenario the matrix made that does not read: said of the matrix value that made it. */
  private static String matrixError(
      JsonProcessingException e, JsonNode tree, Map<String, Swept> sweptAt, YamlPlaces places) {
    String pointer = e instanceof JsonMappingException m ? YamlPlaces.pointer(m, tree) : "";
    Swept s = sweptBy(pointer, sweptAt);
    if (s == null) {
      return places.where(pointer) + ": " + firstLine(e);
    }
    String where = places.where(s.at() + "/" + s.index());
    if (e instanceof UnrecognizedPropertyException u) {
      String known =
          u.getKnownPropertyIds().stream()
              .map(Object::toString)
              .collect(Collectors.toCollection(TreeSet::new))
              .stream()
              .collect(Collectors.joining(", "));
      return places.where(s.at())
          + ": matrix key '"
          + s.key()
          + "' leads to no setting: '"
          + u.getPropertyName()
          + "' is not a key there (known keys: "
          + known
          + ")";
    }
    return where
        + ": matrix key '"
        + s.key()
        + "', value "
        + s.value()
        + ": not a valid value there ("
        + firstLine(e)
        + ")";
  }

  /**
   * The matrix value put at {@code pointer}, at a setting enclosing it, or (for a key the matrix
   * added that leads nowhere) inside it, if any.
   */
  private static Swept sweptBy(String pointer, Map<String, Swept> sweptAt) {
    for (Map.Entry<String, Swept> e : sweptAt.entrySet()) {
      if (!pointer.isEmpty() && e.getKey().startsWith(pointer + "/")) {
        return e.getValue();
      }
    }
    for (String p = pointer; ; ) {
      Swept s = sweptAt.get(p);
      if (s != null) {
        return s;
      }
      int slash = p.lastIndexOf('/');
      if (slash < 0) {
        return null;
      }
      p = p.substring(0, slash);
    }
  }

  private static String firstLine(JsonProcessingException e) {
    String m =
        e.getOriginalMessage() == null ? e.getClass().getSimpleName() : e.getOriginalMessage();
    return m.lines().findFirst().orElse(m).strip();
  }

  /**
   * Puts {@code value} at {@code path}: {@code cluster.F}, {@code collection.F} (every collection),
   * {@code KIND.F} (every step of a kind), {@code KIND.NAME.F} (the step of that kind and name), or
   * any other dotted path into the scenario (list elements by index). Returns the pointers it set.
   */
  static List<String> apply(ObjectNode root, String path, JsonNode value, String at) {
    String[] p = path.split("\\.");
    List<String> set = new ArrayList<>();
    if (p[0].equals("collection") && p.length == 2) {
      int i = 0;
      for (JsonNode c : root.path("cluster").path("collections")) {
        ((ObjectNode) c).set(p[1], value);
        set.add("/cluster/collections/" + i++ + "/" + YamlPlaces.escape(p[1]));
      }
      if (set.isEmpty()) {
        throw SolrscaleException.usage(
            at + ": matrix key '" + path + "': the cluster has no collections");
      }
      return set;
    }
    if (STEP_KINDS.contains(p[0]) && (p.length == 2 || p.length == 3)) {
      int i = 0;
      for (JsonNode step : root.path("steps")) {
        JsonNode body = step.get(p[0]);
        if (body instanceof ObjectNode o && named(o, p)) {
          o.set(p[p.length - 1], value);
          set.add("/steps/" + i + "/" + p[0] + "/" + YamlPlaces.escape(p[p.length - 1]));
        }
        i++;
      }
      if (set.isEmpty()) {
        throw SolrscaleException.usage(
            at
                + ": matrix key '"
                + path
                + "' matches no "
                + p[0]
                + " step"
                + (p.length == 3 ? " named " + p[1] : ""));
      }
      return set;
    }
    JsonNode node = root;
    StringBuilder pointer = new StringBuilder();
    for (int i = 0; i < p.length - 1; i++) {
      JsonNode next = node.isArray() ? node.path(parseIndex(p[i], path, at)) : node.path(p[i]);
      if (next.isMissingNode()) {
        if (node instanceof ObjectNode o) {
          next = o.putObject(p[i]);
        } else {
          throw SolrscaleException.usage(
              at
                  + ": matrix key '"
                  + path
                  + "' does not lead anywhere: "
                  + "there is no element "
                  + p[i]
                  + " there");
        }
      }
      pointer.append('/').append(YamlPlaces.escape(p[i]));
      node = next;
    }
    String last = p[p.length - 1];
    if (node instanceof ObjectNode o) {
      o.set(last, value);
    } else if (node instanceof ArrayNode a) {
      int index = parseIndex(last, path, at);
      if (index >= a.size()) {
        throw SolrscaleException.usage(
            at + ": matrix key '" + path + "': the list has only " + a.size() + " elements");
      }
      a.set(index, value);
    } else {
      throw SolrscaleException.usage(at + ": matrix key '" + path + "' does not lead to a setting");
    }
    set.add(pointer + "/" + YamlPlaces.escape(last));
    return set;
  }

  /** Whether a step's body is the one a {@code KIND.KEY} or {@code KIND.NAME.KEY} path names. */
  private static boolean named(ObjectNode body, String[] p) {
    String kind = p[0];
    return p.length == 2
        || p[1].equals(
            body.path("name")
                .asText(kind.equals("fault") ? body.path("fault").asText(kind) : kind));
  }

  private static int parseIndex(String s, String path, String at) {
    try {
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      throw SolrscaleException.usage(
          at + ": matrix key '" + path + "': '" + s + "' is not a list index");
    }
  }

  /**
   * The rules a scenario must follow besides its cluster spec's; the first error is thrown, placed
   * at its setting (or at the matrix value that put it there).
   */
  static void check(
      ScenarioSpec s, YamlPlaces places, Map<String, Swept> sweptAt, boolean external) {
    for (Problem p : problems(s, external)) {
      if (p.error()) {
        Swept swept = sweptBy(p.path(), sweptAt);
        throw SolrscaleException.usage(
            swept == null
                ? places.message(p)
                : places.where(swept.at() + "/" + swept.index())
                    + ": matrix "
                    + swept.key()
                    + "="
                    + swept.value()
                    + ": "
                    + p.message());
      }
    }
  }

  /** Everything wrong with a scenario (as bound for one combination), each at its setting. */
  static List<Problem> problems(ScenarioSpec s, boolean external) {
    List<Problem> out = new ArrayList<>();
    if (s.cluster() == null) {
      out.add(Problem.error("a scenario needs a 'cluster' (see docs/cluster-spec.md)"));
      return out;
    }
    ClusterSpec cluster =
        s.cluster().name() == null ? s.cluster().withName("scenario") : s.cluster();
    SpecValidator.validate(cluster).forEach(p -> out.add(p.at("/cluster")));
    if (s.repeat() < 1) {
      out.add(Problem.error("repeat must be at least 1").at("/repeat"));
    }
    if (!s.order().equals(ScenarioSpec.BY_COMBINATION)
        && !s.order().equals(ScenarioSpec.BY_ROUND)) {
      out.add(
          Problem.error(
                  "order is "
                      + ScenarioSpec.BY_COMBINATION
                      + " (each combination's repeats back to back) or "
                      + ScenarioSpec.BY_ROUND
                      + " (every combination once a round), not '"
                      + s.order()
                      + "'")
              .at("/order"));
    }
    if (s.steps().isEmpty()) {
      out.add(Problem.error("a scenario needs steps (index, bench, ...)").at("/steps"));
    }
    Map<String, Integer> collections = new LinkedHashMap<>();
    for (CollectionSpec c : cluster.collections()) {
      collections.put(c.name(), c.shards());
    }
    String first = cluster.collections().isEmpty() ? null : cluster.collections().get(0).name();
    for (int i = 0; i < s.steps().size(); i++) {
      StepSpec step = s.steps().get(i);
      StepContext context =
          new StepContext(
              cluster.nodeCount(),
              cluster.zookeeper().servers(),
              external ? null : collections,
              first,
              cluster.hosts());
      List<Problem> found = step.problems(context);
      String at = "/steps/" + i + "/" + step.kind();
      String named = step.kind() + " step '" + step.name() + "'";
      found.forEach(
          p ->
              out.add(
                  new Problem(
                          p.error(),
                          p.message().startsWith(named) ? p.message() : named + ": " + p.message(),
                          p.path())
                      .at(at)));
      StepKind kind = StepKinds.of(step);
      if (kind.runsAlongside()
          && s.steps().subList(i + 1, s.steps().size()).stream()
              .allMatch(x -> StepKinds.of(x).runsAlongside())) {
        out.add(
            Problem.error(
                    named
                        + " runs alongside the step after it, and there is none; add an index, "
                        + "bench or chaos step after it")
                .at(at));
      }
      if (external && kind.needsOurCluster() != null) {
        out.add(
            Problem.error(
                    named
                        + " needs a cluster solrscale started: "
                        + kind.needsOurCluster()
                        + "; leave it out, or run the scenario without --zk/--url")
                .at(at));
      }
      if (found.stream().noneMatch(Problem::error)) {
        collections = step.collectionsAfter(collections, context);
      }
      out.addAll(needsData(s, step, at));
    }
    return out;
  }

  /** An index step needs a corpus, a bench step queries: its own, or the scenario's data. */
  private static List<Problem> needsData(ScenarioSpec s, StepSpec step, String at) {
    ScenarioSpec.DataSpec d = s.data();
    boolean corpus = !d.files().isEmpty() || d.synth() != null;
    if (step instanceof StepSpec.Index i && i.files().isEmpty() && !corpus) {
      return List.of(
          Problem.error(
                  "index step '"
                      + i.name()
                      + "' needs data: data.files or data.synth, "
                      + "or files in the step")
              .at(at));
    }
    if (step instanceof StepSpec.Bench b
        && b.queries() == null
        && b.replay() == null
        && d.queries().isEmpty()
        && !corpus) {
      return List.of(
          Problem.error(
                  "bench step '"
                      + b.name()
                      + "' needs queries: data.queries, a corpus "
                      + "to derive them from (data.files or data.synth), or queries in the step")
              .at(at));
    }
    return List.of();
  }

  /**
   * Whether two scenarios deploy the same nodes (so a run can keep them between the two and only
   * make the collections again): the cluster alike in everything but its collections.
   */
  public static boolean sameTopology(ScenarioSpec a, ScenarioSpec b) {
    return YAML.valueToTree(a.cluster().withCollections(List.of()))
        .equals(YAML.valueToTree(b.cluster().withCollections(List.of())));
  }

  /**
   * Whether two scenario texts say the same: equal as YAML trees, so comments, blank lines, quoting
   * styles and the order of keys do not count (a resumed run accepts a scenario whose comments
   * changed). Text that does not parse is compared as text.
   */
  public static boolean sameContent(String a, String b) {
    if (a.equals(b)) {
      return true;
    }
    try {
      JsonNode ta = YAML.readTree(a);
      JsonNode tb = YAML.readTree(b);
      return ta != null && ta.equals(tb);
    } catch (JsonProcessingException e) {
      return false;
    }
  }
}
