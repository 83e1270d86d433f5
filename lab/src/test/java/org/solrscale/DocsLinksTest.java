package org.solrscale;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link and #anchor in README.md and docs/ leads somewhere, with anchors slugged as
 * GitHub slugs headings; docs/architecture.md links nowhere outside the repository.
 */
class DocsLinksTest {

  private static final Pattern LINK =
      Pattern.compile("!?\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?[^)]*\\)");
  private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");
  private static final Pattern EXTERNAL = Pattern.compile("(?i)\\b(https?|ftp)://");

  private final Path root = repositoryRoot();
  private final Map<Path, Set<String>> anchors = new HashMap<>();

  @Test
  void everyRelativeLinkAndAnchorExists() throws IOException {
    List<String> dead = new ArrayList<>();
    int links = 0;
    for (Path file : markdownFiles()) {
      List<String> lines = proseLines(file, false);
      for (int i = 0; i < lines.size(); i++) {
        Matcher m = LINK.matcher(lines.get(i));
        while (m.find()) {
          String target = m.group(1);
          if (target.matches("(?i)[a-z][a-z0-9+.-]*:.*")) {
            continue; // http:, https:, mailto: lead outside; only architecture.md forbids them
          }
          links++;
          String problem = problem(file, target);
          if (problem != null) {
            dead.add(root.relativize(file) + ":" + (i + 1) + ": " + target + " (" + problem + ")");
          }
        }
      }
    }
    assertThat(links).as("links found").isGreaterThan(50);
    assertThat(dead).as("dead links").isEmpty();
  }

  @Test
  void architectureLinksNowhereOutsideTheRepository() throws IOException {
    Path map = root.resolve("docs/architecture.md");
    List<String> lines = Files.readAllLines(map);
    List<String> outside = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (EXTERNAL.matcher(lines.get(i)).find()) {
        outside.add("docs/architecture.md:" + (i + 1) + ": " + lines.get(i).strip());
      }
    }
    assertThat(outside).as("links out of the repository").isEmpty();
  }

  @Test
  void everyFigureRowLinksItsBenchPageAndEveryPageHasARow() throws IOException {
    List<String> lines = Files.readAllLines(root.resolve("docs/benchmarks.md"));
    Set<String> linked = new HashSet<>();
    List<String> wrong = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (!line.startsWith("| ") || line.startsWith("| what ") || line.startsWith("| ---")) {
        continue;
      }
      String[] cells = line.split("(?<!\\\\)\\|", -1);
      Matcher page =
          Pattern.compile("\\]\\((bench/[^)]+\\.md)\\)").matcher(cells[cells.length - 2]);
      if (cells.length != 9 || !page.find()) {
        wrong.add("docs/benchmarks.md:" + (i + 1) + ": not 7 cells ending in a link to bench/*.md");
      } else {
        linked.add(page.group(1));
      }
    }
    try (Stream<Path> pages = Files.list(root.resolve("docs/bench"))) {
      pages
          .filter(p -> p.toString().endsWith(".md"))
          .map(p -> "bench/" + p.getFileName())
          .filter(p -> !linked.contains(p))
          .sorted()
          .forEach(p -> wrong.add("docs/" + p + ": no row of docs/benchmarks.md links it"));
    }
    assertThat(linked).as("rows").hasSizeGreaterThan(10);
    assertThat(wrong).as("figures table").isEmpty();
  }

  @Test
  void slugsAreGitHubs() {
    assertThat(slug("`up`: wall time and memory per node (2026-11-21)"))
        .isEqualTo("up-wall-time-and-memory-per-node-2026-11-21");
    assertThat(slug("How `up` brings a cluster up")).isEqualTo("how-up-brings-a-cluster-up");
    assertThat(slug("A [link](x.md) and *emphasis*")).isEqualTo("a-link-and-emphasis");
    assertThat(slug("Solr 10.0.0 against 9.10.1")).isEqualTo("solr-1000-against-9101");
    assertThat(slug("snake_case stays")).isEqualTo("snake_case-stays");
  }

  /** Why a link from {@code file} to {@code target} is dead, or null when it is not. */
  private String problem(Path file, String target) throws IOException {
    int hash = target.indexOf('#');
    String path = hash < 0 ? target : target.substring(0, hash);
    String anchor = hash < 0 ? null : target.substring(hash + 1);
    Path to = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
    if (!to.startsWith(root)) {
      return "outside the repository";
    }
    if (!Files.exists(to)) {
      return "no such file";
    }
    if (anchor == null || anchor.isEmpty()) {
      return null;
    }
    if (!to.toString().endsWith(".md")) {
      return "an anchor into a file that is not Markdown";
    }
    return anchorsOf(to).contains(anchor) ? null : "no such anchor in " + root.relativize(to);
  }

  private Set<String> anchorsOf(Path file) throws IOException {
    Set<String> known = anchors.get(file);
    if (known == null) {
      known = new HashSet<>();
      Map<String, Integer> seen = new HashMap<>();
      for (String line : proseLines(file, true)) {
        Matcher h = HEADING.matcher(line);
        if (h.matches()) {
          String s = slug(h.group(2));
          int n = seen.merge(s, 1, Integer::sum) - 1;
          known.add(n == 0 ? s : s + "-" + n);
        }
        Matcher a = HTML_ANCHOR.matcher(line);
        while (a.find()) {
          known.add(a.group(1));
        }
      }
      anchors.put(file, known);
    }
    return known;
  }

  /** GitHub's slug of a heading: its text, lower case, punctuation dropped, spaces to hyphens. */
  static String slug(String heading) {
    String text =
        heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replaceAll("<[^>]+>", "");
    text = text.replaceAll("[`*]", "").toLowerCase(java.util.Locale.ROOT);
    text = text.replaceAll("[^\\p{L}\\p{N}\\p{M}_ -]", "");
    return text.replace(' ', '-');
  }

  /**
   * The file's lines with fenced code blocks blanked, so that neither a link nor a heading is read
   * inside code, and code spans emptied unless {@code keepSpans} (a heading's slug has their text).
   * Line numbers stay those of the file.
   */
  private static List<String> proseLines(Path file, boolean keepSpans) throws IOException {
    List<String> out = new ArrayList<>();
    String fence = null;
    for (String line : Files.readAllLines(file)) {
      String t = line.stripLeading();
      if (fence == null && (t.startsWith("```") || t.startsWith("~~~"))) {
        fence = t.substring(0, 3);
        out.add("");
      } else if (fence != null) {
        if (t.startsWith(fence)) {
          fence = null;
        }
        out.add("");
      } else {
        out.add(keepSpans ? line : line.replaceAll("`[^`]*`", "``"));
      }
    }
    return out;
  }

  private List<Path> markdownFiles() throws IOException {
    List<Path> files = new ArrayList<>();
    files.add(root.resolve("README.md"));
    try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
    }
    return files;
  }

  /** The repository's root, from the module's working directory or any directory below the root. */
  private static Path repositoryRoot() {
    Path dir = Path.of("").toAbsolutePath();
    for (Path d = dir; d != null; d = d.getParent()) {
      if (Files.isRegularFile(d.resolve("README.md"))
          && Files.isDirectory(d.resolve("docs"))
          && Files.isRegularFile(d.resolve("lab/pom.xml"))) {
        return d;
      }
    }
    throw new IllegalStateException("no repository root (README.md, docs/, lab/) above " + dir);
  }
}
