package org.solrscale.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;
import org.junit.jupiter.api.Test;
import org.solrscale.data.Document;

class ReplacedCountTest {
  private static Batch.Entry entry(String id, int children) {
    Document d = new Document().add("id", id);
    for (int i = 0; i < children; i++) {
      d.addChild(new Document().add("id", id + "-" + i));
    }
    return new Batch.Entry(new SolrInputDocument(), id, true, d, "f", 1, 1);
  }

  private static final ReplaceLedger.Versions NONE = (id, size, overFamily) -> {};

  private static Set<Batch.Entry> refused(Batch.Entry... es) {
    Set<Batch.Entry> s = Collections.newSetFromMap(new IdentityHashMap<>());
    s.addAll(List.of(es));
    return s;
  }

  @Test
  void aCopyThatSolrRefusedReplacesNothingAndTheNextCopyReplacesWhatWasThereBefore() {
    Batch.Entry bad = entry("a", 0);
    Batch.Entry good = entry("a", 0);
    // new id: the refused copy leaves nothing for the accepted one to replace
    assertThat(ReplaceLedger.replacedBy(List.of(bad, good), refused(bad), Map.of(), NONE)).isZero();
    // the collection held a family of three under that id: the accepted copy replaces it
    assertThat(ReplaceLedger.replacedBy(List.of(bad, good), refused(bad), Map.of("a", 3L), NONE))
        .isEqualTo(3);
    // both accepted: the second replaces the first
    assertThat(ReplaceLedger.replacedBy(List.of(bad, good), refused(), Map.of("a", 3L), NONE))
        .isEqualTo(4);
  }

  @Test
  void eachAcceptedCopyReplacesTheVersionJustBeforeItWithItsChildren() {
    Batch.Entry fam = entry("f", 2);
    Batch.Entry plain = entry("f", 0);
    Batch.Entry big = entry("f", 12);
    Batch.Entry other = entry("o", 0);
    assertThat(ReplaceLedger.replacedBy(List.of(fam, other, plain, big), refused(), Map.of(), NONE))
        .isEqualTo(3 + 1);
    assertThat(
            ReplaceLedger.replacedBy(
                List.of(fam, other, plain, big), refused(plain), Map.of("o", 1L), NONE))
        .isEqualTo(1 + 3);
  }

  @Test
  void everyAcceptedVersionIsHeardOfWithItsSizeAndWhetherItReplacedAFamily() {
    Batch.Entry fam = entry("f", 2);
    Batch.Entry plain = entry("f", 0);
    Batch.Entry again = entry("f", 0);
    Batch.Entry other = entry("o", 0);
    List<String> heard = new ArrayList<>();
    ReplaceLedger.replacedBy(
        List.of(other, fam, plain, again),
        refused(),
        Map.of("o", 5L),
        (id, size, overFamily) ->
            heard.add(id + "=" + size + (overFamily ? " over a family" : "")));
    assertThat(heard).containsExactly("o=1 over a family", "f=3", "f=1 over a family", "f=1");
  }

  @Test
  void descendantsCountsAnonymousAndLabelledChildrenAtAnyDepth() {
    SolrDocument root = new SolrDocument();
    root.setField("id", "r");
    SolrDocument a = new SolrDocument();
    a.setField("id", "a");
    SolrDocument a1 = new SolrDocument();
    a1.setField("id", "a1");
    a.addChildDocument(a1);
    root.addChildDocument(a);
    SolrDocument l1 = new SolrDocument();
    l1.setField("id", "l1");
    SolrDocument l2 = new SolrDocument();
    l2.setField("id", "l2");
    root.setField("pages", List.of(l1, l2)); // labelled children, as with _nest_path_
    assertThat(IdLookups.descendants(root)).isEqualTo(4);
  }
}
