package org.solrscale.cli;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.apache.solr.client.solrj.request.QueryRequest;
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
  /**
   * Sends one request through the Solr client stack to a local server that does not speak HTTP/2,
   * so the client's connection, HTTP/2 and TLS-context classes load; the failure is expected.
   */
  private static void talkToNobody() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        ex -> {
          ex.sendResponseHeaders(200, -1);
          ex.close();
        });
    server.start();
    String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/solr";
    try (CloudHttp2SolrClient c = new CloudHttp2SolrClient.Builder(List.of(url)).build();
        Http2SolrClient h =
            new Http2SolrClient.Builder(url).withRequestTimeout(2, TimeUnit.SECONDS).build()) {
      try {
        h.request(new QueryRequest(), "c");
      } catch (Exception expected) {
        // nobody there speaks Solr
      }
      try {
        c.query("c", new SolrQuery("*:*"));
      } catch (Exception expected) {
        // nor ZooKeeper-less cluster state
      }
    } finally {
      server.stop(0);
    }
  }

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
      talkToNobody();
      return 0;
    } finally {
      try (var files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }
}
