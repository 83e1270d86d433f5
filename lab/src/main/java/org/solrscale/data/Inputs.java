package org.solrscale.data;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.solrscale.spec.SolrscaleException;

/** Turns input arguments into files: plain paths, or globs (*, ?) the shell did not expand. */
public final class Inputs {
  private Inputs() {}

  public static List<Path> expand(List<String> args) {
    List<Path> files = new ArrayList<>();
    for (String arg : args) {
      Path p = Path.of(arg);
      if (Files.isRegularFile(p)) {
        files.add(p);
        continue;
      }
      String name = p.getFileName() == null ? "" : p.getFileName().toString();
      if (!name.contains("*") && !name.contains("?")) {
        throw SolrscaleException.usage("input file " + arg + " does not exist");
      }
      Path dir = p.getParent() == null ? Path.of(".") : p.getParent();
      List<Path> matched = new ArrayList<>();
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, name)) {
        ds.forEach(f -> {
          if (Files.isRegularFile(f)) {
            matched.add(f);
          }
        });
      } catch (IOException e) {
        throw SolrscaleException.usage("cannot list " + dir + ": " + e.getMessage());
      }
      if (matched.isEmpty()) {
        throw SolrscaleException.usage("no file matches " + arg);
      }
      matched.sort(null);
      files.addAll(matched);
    }
    if (files.isEmpty()) {
      throw SolrscaleException.usage("no input files given");
    }
    return files;
  }
}
