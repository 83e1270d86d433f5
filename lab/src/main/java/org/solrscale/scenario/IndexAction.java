package org.solrscale.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.solrscale.data.Inputs;
import org.solrscale.index.IndexOptions;
import org.solrscale.index.IndexRun;
import org.solrscale.results.IndexProgressLog;
import org.solrscale.spec.SolrscaleException;
import org.solrscale.spec.StepSpec;

/**
 * An index step: the bulk indexer on the run's corpus (or the step's files); its rejects in its
 * folder.
 */
final class IndexAction implements StepAction<StepSpec.Index> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public JsonNode run(StepSpec.Index i, StepRun run) {
    List<Path> files =
        i.files().isEmpty()
            ? run.data().corpus()
            : Inputs.expand(i.files().stream().map(run::file).toList());
    int threads =
        i.threads() != null ? i.threads() : Math.max(2, Runtime.getRuntime().availableProcessors());
    IndexOptions o =
        new IndexOptions(
            files,
            null,
            run.collection(i.collection()),
            threads,
            i.batch(),
            IndexOptions.parseCommit(i.commit()),
            null,
            run.dir().resolve("rejects.jsonl"),
            9);
    JsonNode summary;
    // the throughput of each second, for compare and for watching, written as it goes
    try (IndexProgressLog progress = new IndexProgressLog(run.dir());
        CloudHttp2SolrClient client = run.target().access().cloud(run.target().solrUrls())) {
      summary =
          JSON.valueToTree(
              IndexRun.run(
                  client,
                  run.target().access(),
                  run.target().solrUrls().get(0),
                  o,
                  s -> {},
                  p -> progress.record(p.seconds(), p.accepted())));
    } catch (IOException e) {
      throw SolrscaleException.environment("cannot close the Solr client: " + e.getMessage());
    }
    return summary;
  }
}
