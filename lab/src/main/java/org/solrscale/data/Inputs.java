package org.solrscale.data;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.solrscale.spec.SolrscaleException;

/** Turns input arguments into files: plain paths, or globs (*, ?) the shell did not expand. */
public final class Inputs {
  private Inputs() {}

  public static List<Path> expand(List<String> args) {
    List<Path> files = new ArrayList<>();
    for (String arg : args) {
      if (arg.isBlank()) { // Path.of("") is the working directory
        throw SolrscaleException.usage("an input file name is empty: give the file's path");
      }
      Path p = Path.of(arg);
      if (Files.isRegularFile(p)) {
        files.add(p);
        continue;
      }
      if (Files.isDirectory(p)) {
        throw SolrscaleException.usage(
            "input "
                + arg
                + " is a directory: give the files in it, e.g. '"
                + p.resolve("*.jsonl")
                + "'");
      }
      if (arg.equals("-") || Files.exists(p)) { // a pipe, a device, standard input
        throw SolrscaleException.usage(
            "input "
                + arg
                + " is not a regular file (a pipe or standard "
                + "input?): solrscale reads files, some twice (their size, CSV's columns, split's "
                + "count): save it to a file first");
      }
      if (!arg.contains("*") && !arg.contains("?")) {
        throw SolrscaleException.usage("input file " + arg + " does not exist");
      }
      // globs may stand in any component (logs/*/solr.log*): each level listed in turn
      int first = 0;
      while (first < p.getNameCount() && !glob(p.getName(first).toString())) {
        first++;
      }
      Path base =
          first == 0
              ? (p.getRoot() != null ? p.getRoot() : Path.of("."))
              : (p.getRoot() != null
                  ? p.getRoot().resolve(p.subpath(0, first))
                  : p.subpath(0, first));
      List<Path> matched = new ArrayList<>();
      match(base, p, first, matched);
      if (matched.isEmpty()) {
        throw SolrscaleException.usage("no file matches " + arg);
      }
      files.addAll(matched);
    }
    if (files.isEmpty()) {
      throw SolrscaleException.usage("no input files given");
    }
    return files;
  }

  private static boolean glob(String component) {
    return component.contains("*") || component.contains("?");
  }

  /**
   * Adds to {@code out} the regular files under {@code dir} that match the components of {@code
   * pattern} from {@code level} on, each component a glob of one name.
   */
  private static void match(Path dir, Path pattern, int level, List<Path> out) {
    boolean last = level == pattern.getNameCount() - 1;
    String name = pattern.getName(level).toString();
    List<Path> here = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, name)) {
      ds.forEach(here::add);
    } catch (java.nio.file.NotDirectoryException | java.nio.file.NoSuchFileException e) {
      return; // nothing there to match
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot list " + dir + ": " + Corpus.why(e));
    }
    here.sort(null);
    for (Path f : here) {
      if (last && Files.isRegularFile(f)) {
        out.add(f);
      } else if (!last && Files.isDirectory(f)) {
        match(f, pattern, level + 1, out);
      }
    }
  }

  /** Refuses an output directory where a part ({@code PREFIX-NNNNN.*}) could overwrite an input. */
  public static void checkOutputDir(Path dir, String prefix, List<Path> inputs) {
    if (prefix.isEmpty()
        || prefix.contains("/")
        || prefix.contains("\\")
        || prefix.startsWith(".")) {
      throw SolrscaleException.usage(
          "--prefix '"
              + prefix
              + "' is not a plain file name prefix "
              + "(no '/', not starting with '.'): the parts' directory goes in --out");
    }
    if (dir.toString().isBlank()) { // Path.of("") is the working directory
      throw SolrscaleException.usage("--out is empty: give the folder for the parts");
    }
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw SolrscaleException.usage(
          "--out "
              + dir
              + " is a file: split writes its parts into a "
              + "folder (it creates one that does not exist)");
    }
    if (!Files.isDirectory(dir)) {
      return;
    }
    for (Path in : inputs) {
      try {
        Path parent = in.toAbsolutePath().getParent();
        if (parent != null
            && Files.isSameFile(parent, dir)
            && isPart(in.getFileName().toString(), prefix)) {
          throw SolrscaleException.usage(
              "the input "
                  + in
                  + " has the name of a part split writes in "
                  + dir
                  + ": choose another --out or --prefix");
        }
      } catch (IOException e) {
        throw SolrscaleException.usage("cannot check " + dir + ": " + Corpus.why(e));
      }
    }
    try (Stream<Path> files = Files.list(dir)) {
      List<String> old =
          files
              .map(p -> p.getFileName().toString())
              .filter(n -> isPart(n, prefix))
              .sorted()
              .limit(3)
              .toList();
      if (!old.isEmpty()) { // new parts would mix with them, and fewer would leave stale ones
        throw SolrscaleException.usage(
            dir
                + " already holds parts of an earlier split ("
                + String.join(", ", old)
                + (old.size() == 3 ? ", ..." : "")
                + "): remove them, or choose another --out or --prefix");
      }
    } catch (IOException e) {
      throw SolrscaleException.usage("cannot list " + dir + ": " + Corpus.why(e));
    }
  }

  /** Whether a file name is that of a part split writes with this prefix. */
  private static boolean isPart(String name, String prefix) {
    return name.matches(Pattern.quote(prefix) + "-\\d{5}\\..*");
  }

  /**
   * Refuses an output file that is one of the inputs (by any name: a link, another path): opening
   * it for writing would empty it before it is read.
   */
  public static void checkOutput(Path output, List<Path> inputs) {
    if (output.toString().isBlank()) {
      throw SolrscaleException.usage("--out is empty: give the output file's path");
    }
    String missing = Corpus.missingFolder(output);
    if (missing != null) { // as every command says it, none makes it
      throw SolrscaleException.usage("cannot write " + output + ": " + missing);
    }
    if (!Files.exists(output)) {
      return;
    }
    for (Path in : inputs) {
      try {
        if (Files.isSameFile(output, in)) {
          throw SolrscaleException.usage(
              "the output " + output + " is also an input (" + in + "): write to another file");
        }
      } catch (IOException e) {
        throw SolrscaleException.usage("cannot check " + output + ": " + Corpus.why(e));
      }
    }
  }
}
