package org.solrscale.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class BenchPlanTest {
  @Test
  void queryFileParamsBecomeAUriQuery() {
    String q = BenchPlan.uriSafe("q={!nosuchparser}x y&fq=\"a b\"&q.op=AND&t=é😀");
    assertThat(q)
        .isEqualTo("q=%7B!nosuchparser%7Dx%20y&fq=%22a%20b%22&q.op=AND&t=%C3%A9%F0%9F%98%80");
    assertThat(URI.create("http://h/solr/c/select?" + q).getQuery())
        .isEqualTo("q={!nosuchparser}x y&fq=\"a b\"&q.op=AND&t=é😀");
    // what is already encoded stays so
    assertThat(BenchPlan.uriSafe("q=%E2%82%AC+x")).isEqualTo("q=%E2%82%AC+x");
  }
}
