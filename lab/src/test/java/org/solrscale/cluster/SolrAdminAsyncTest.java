package org.solrscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.apache.solr.client.solrj.request.CollectionAdminRequest.RequestStatusResponse;
import org.apache.solr.client.solrj.response.RequestStatusState;
import org.apache.solr.common.util.NamedList;
import org.junit.jupiter.api.Test;
import org.solrscale.spec.SolrscaleException;

class SolrAdminAsyncTest {

  /** A REQUESTSTATUS answer as Solr shapes it: {status={state=..., msg=...}}. */
  private static RequestStatusResponse answer(RequestStatusState state) {
    NamedList<Object> status = new NamedList<>();
    status.add("state", state.getKey());
    status.add("msg", "found [x] in " + state.getKey());
    NamedList<Object> response = new NamedList<>();
    response.add("status", status);
    RequestStatusResponse r = new RequestStatusResponse();
    r.setResponse(response);
    return r;
  }

  private static Deque<RequestStatusResponse> answers(RequestStatusState... states) {
    Deque<RequestStatusResponse> d = new ArrayDeque<>();
    for (RequestStatusState s : states) {
      d.add(answer(s));
    }
    return d;
  }

  @Test
  void aNotFoundBetweenRunningAndCompletedIsNotBelieved() {
    // what CI saw on Solr 9.8.1: the CREATE finished between REQUESTSTATUS's looks
    Deque<RequestStatusResponse> d =
        answers(
            RequestStatusState.SUBMITTED,
            RequestStatusState.RUNNING,
            RequestStatusState.NOT_FOUND,
            RequestStatusState.COMPLETED);
    RequestStatusResponse last =
        SolrAdmin.awaitAsync(d::poll, Duration.ofSeconds(5), 1, "creating collection 'docs'");
    assertThat(last.getRequestStatus()).isEqualTo(RequestStatusState.COMPLETED);
    assertThat(d).isEmpty();
  }

  @Test
  void aFailureEndsTheWaitAtOnce() {
    Deque<RequestStatusResponse> d =
        answers(RequestStatusState.RUNNING, RequestStatusState.FAILED, RequestStatusState.RUNNING);
    assertThat(SolrAdmin.awaitAsync(d::poll, Duration.ofSeconds(5), 1, "x").getRequestStatus())
        .isEqualTo(RequestStatusState.FAILED);
    assertThat(d).hasSize(1);
  }

  @Test
  void notFoundIsBelievedOnlyWhenItRepeats() {
    int[] polls = {0};
    RequestStatusResponse last =
        SolrAdmin.awaitAsync(
            () -> {
              polls[0]++;
              return answer(RequestStatusState.NOT_FOUND);
            },
            Duration.ofSeconds(5),
            1,
            "x");
    assertThat(last.getRequestStatus()).isEqualTo(RequestStatusState.NOT_FOUND);
    assertThat(polls[0]).isEqualTo(SolrAdmin.NOT_FOUND_BELIEVED_AFTER);
  }

  @Test
  void aRunNotFinishingInTimeIsNamed() {
    List<RequestStatusState> seen = new java.util.ArrayList<>();
    assertThatThrownBy(
            () ->
                SolrAdmin.awaitAsync(
                    () -> {
                      seen.add(RequestStatusState.RUNNING);
                      return answer(RequestStatusState.RUNNING);
                    },
                    Duration.ofMillis(30),
                    5,
                    "creating collection 'docs'"))
        .isInstanceOf(SolrscaleException.class)
        .hasMessage("creating collection 'docs' did not finish within 0 s");
    assertThat(seen.size()).isGreaterThan(1);
  }
}
