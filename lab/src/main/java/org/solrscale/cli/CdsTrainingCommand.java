package org.solrscale.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import org.solrscale.cluster.SolrClientClasses;
import org.solrscale.data.Corpus;
import org.solrscale.data.CorpusReader;
import org.solrscale.spec.SpecLoader;
import picocli.CommandLine.Command;

/**
 * Loads the classes most commands need, without touching the network, so that the launcher can
 * record them in a class data sharing archive once per build: every later start then maps them
 * instead of parsing and verifying about 4,000 classes (about 0.5 s less per command here).
 */
@Command(
    name = "cds-training",
    hidden = true,
    description = "Internal: load common classes for the launcher's CDS archive.")
final class CdsTrainingCommand implements Callable<Integer> {
  @Override
  public Integer call() throws Exception {
    Path dir = Files.createTempDirectory("solrscale-cds");
    try {
      Path spec = dir.resolve("cluster.yaml");
      Files.writeString(spec, "name: training\nnodes: 2\nzookeeper: 1\n");
      SpecLoader.load(spec);
      Path xml = dir.resolve("c.xml");
      Files.writeString(xml, "<add><doc><field name=\"id\">1</field></doc></add>\n");
      Path jsonl = dir.resolve("c.jsonl");
      Files.writeString(jsonl, "{\"id\":\"1\",\"n_i\":1}\n");
      for (Path p : List.of(xml, jsonl)) {
        try (CorpusReader r = Corpus.open(p)) {
          r.next();
        }
      }
      picocli.CommandLine all = Main.commandLine(new Main());
      for (String line :
          List.of(
              "index --name n --collection c --threads 2 a.xml",
              "status --name n --json",
              "data split a.xml --parts 2 -o d",
              "up --nodes 2 --shards 2")) {
        all.parseArgs(line.split(" "));
      }
      SolrClientClasses.load();
      return 0;
    } finally {
      try (var files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }
}
