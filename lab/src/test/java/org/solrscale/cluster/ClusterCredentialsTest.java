package org.solrscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.solrscale.spec.SolrscaleException;

class ClusterCredentialsTest {
  @TempDir Path dir;

  @Test
  void hashesAsSolrDoes() {
    // the example user of Solr's reference guide: solr / SolrRocks, with its salt and hash
    String salt = "Ndd7LKvVBAaZIF0QAVi1ekCfAJXr1GGfLtRUXhgrF8c=";
    assertThat(ClusterCredentials.hash("SolrRocks", Base64.getDecoder().decode(salt)))
        .isEqualTo("IV0EHq1OnNrj6gvRCwvFwTrZ1+z1oBbnQdiVC3otuq0=");
  }

  @Test
  void generatesOnceIntoAnOwnerOnlyFileAndReadsTheSameBack() throws Exception {
    Path cluster = dir.resolve("clusters/lab");
    ClusterCredentials made = ClusterCredentials.ensure(cluster);
    Path f = ClusterCredentials.file(cluster);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f)))
        .isEqualTo("rw-------");
    Access admin = made.access("admin");
    Access again = ClusterCredentials.ensure(cluster).access("admin");
    assertThat(again.authorization()).isEqualTo(admin.authorization());
    assertThat(ClusterCredentials.load(cluster).access("reader").authorization())
        .isNotEqualTo(admin.authorization());
    String password =
        Files.readString(f)
            .lines()
            .filter(l -> l.startsWith("admin="))
            .findFirst()
            .orElseThrow()
            .substring(6);
    assertThat(password).hasSize(32);
    assertThat(admin.toString()).doesNotContain(password).contains("admin");
    assertThat(admin.appearsIn("x" + password)).isTrue();
    assertThatThrownBy(() -> made.access("root"))
        .isInstanceOf(SolrscaleException.class)
        .hasMessageContaining("--user admin or --user reader");
  }

  @Test
  void securityJsonHoldsHashesAndTheRoles() throws Exception {
    ClusterCredentials c = ClusterCredentials.ensure(dir);
    String json = c.securityJson();
    String password =
        Files.readString(ClusterCredentials.file(dir))
            .lines()
            .filter(l -> l.startsWith("admin="))
            .findFirst()
            .orElseThrow()
            .substring(6);
    assertThat(json).doesNotContain(password);
    JsonNode root = new ObjectMapper().readTree(json);
    assertThat(root.at("/authentication/blockUnknown").asBoolean()).isTrue();
    String[] stored = root.at("/authentication/credentials/admin").asText().split(" ");
    assertThat(ClusterCredentials.hash(password, Base64.getDecoder().decode(stored[1])))
        .isEqualTo(stored[0]);
    JsonNode perms = root.at("/authorization/permissions");
    assertThat(perms.get(perms.size() - 1).path("name").asText()).isEqualTo("all");
    assertThat(perms.get(perms.size() - 1).path("role").asText()).isEqualTo("admin");
    assertThat(root.at("/authorization/user-role/reader").asText()).isEqualTo("reader");
  }

  @Test
  void aBrokenFileIsOneLine() throws Exception {
    Files.writeString(ClusterCredentials.file(dir), "admin=x\n");
    assertThatThrownBy(() -> ClusterCredentials.load(dir))
        .isInstanceOf(SolrscaleException.class)
        .hasMessageContaining("no password for user 'reader'");
  }

  @Test
  void refusalsNameTheUser() {
    assertThat(Access.basic("bob", "pw").refusal(401, "Solr at h:1"))
        .contains("user 'bob'")
        .doesNotContain("pw'");
    assertThat(Access.NONE.refusal(401, "Solr at h:1")).contains("--user USER");
    assertThat(Access.basic("bob", "pw").refusal(403, "Solr at h:1"))
        .contains("refused user 'bob'");
    assertThat(Access.NONE.refusal(200, "x")).isNull();
  }
}
