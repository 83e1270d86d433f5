package org.solrscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SshTest {
  @Test
  void argumentsAreQuotedForTheRemoteShellOnlyWhenTheyNeedIt() {
    assertThat(Ssh.quote(List.of("sh", "-s", "--", "start", "/a/b", "-Dx=1")))
        .isEqualTo("sh -s -- start /a/b -Dx=1");
    assertThat(Ssh.quote(List.of("a b", "it's", "", "$HOME", "x;rm")))
        .isEqualTo("'a b' 'it'\\''s' '' '$HOME' 'x;rm'");
  }
}
