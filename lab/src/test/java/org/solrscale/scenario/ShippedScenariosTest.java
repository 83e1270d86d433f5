package org.solrscale.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.solrscale.spec.ScenarioLoader;

/**
 * Every scenario shipped in scenarios/ passes what `run` checks before it makes a directory or
 * starts a process: the loader (schema, matrix, repeat) and the preflight (files, synth, derived
 * queries on a sample, faults the safety rules will certainly refuse).
 */
class ShippedScenariosTest {
  static final Path SCENARIOS = Path.of("../scenarios");

  static List<Path> shipped() throws IOException {
    try (Stream<Path> files = Files.list(SCENARIOS)) {
      return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shipped")
  void passesTheLoaderAndThePreflight(Path file) {
    ScenarioLoader.Loaded loaded = ScenarioLoader.load(file);
    assertThat(loaded.combinations()).as(file.toString()).isNotEmpty();
    Preflight.check(loaded, file.toAbsolutePath().getParent());
  }
}
