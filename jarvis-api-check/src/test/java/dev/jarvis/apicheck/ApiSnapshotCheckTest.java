package dev.jarvis.apicheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ApiSnapshotCheckTest {

  private static final List<String> API =
      List.of(
          "public final class dev.jarvis.Host",
          "  public java.util.Optional<java.lang.String> actor(java.lang.String)",
          "  public void close()");

  @Test
  void anUnchangedApiPasses(@TempDir Path root) throws Exception {
    Path snapshot = snapshot(root, API);

    assertEquals(Optional.empty(), ApiSnapshotCheck.compare("jarvis-x", snapshot, API));
  }

  @Test
  void aChangedSignatureFailsWithAUnifiedDiffAndTheCommandThatAcceptsIt(@TempDir Path root)
      throws Exception {
    Path snapshot = snapshot(root, API);
    List<String> built =
        List.of(
            "public final class dev.jarvis.Host",
            "  public java.lang.String actor(java.lang.String)",
            "  public void close()");

    String failure = ApiSnapshotCheck.compare("jarvis-x", snapshot, built).orElseThrow();

    assertTrue(
        failure.contains(
            "--- a/jarvis-x/api/jarvis-x.api (committed)\n"
                + "+++ b/jarvis-x/api/jarvis-x.api (built)\n"
                + "@@ -1,3 +1,3 @@\n"
                + " public final class dev.jarvis.Host\n"
                + "-  public java.util.Optional<java.lang.String> actor(java.lang.String)\n"
                + "+  public java.lang.String actor(java.lang.String)\n"
                + "   public void close()\n"),
        failure);
    assertTrue(failure.contains("scripts/accept-api.sh"), failure);
  }

  @Test
  void aModuleWithoutASnapshotFailsListingItsWholeApi(@TempDir Path root) throws Exception {
    String failure =
        ApiSnapshotCheck.compare("jarvis-x", root.resolve("missing.api"), API).orElseThrow();

    assertTrue(failure.contains("there is none yet"), failure);
    assertTrue(failure.contains("@@ -0,0 +1,3 @@\n+public final class dev.jarvis.Host\n"), failure);
  }

  @Test
  void thePublishedModulesAreTheOnesTheBomLists(@TempDir Path root) throws Exception {
    Files.createDirectories(root.resolve("jarvis-bom"));
    Files.writeString(
        root.resolve("jarvis-bom/pom.xml"),
        "<project><groupId>dev.jarvis</groupId><artifactId>jarvis-bom</artifactId>"
            + "<dependency><groupId>dev.jarvis</groupId>\n  <artifactId>jarvis-model</artifactId>"
            + "</dependency><dependency><groupId>com.other</groupId><artifactId>lib</artifactId>"
            + "</dependency></project>");

    assertEquals(List.of("jarvis-model"), ApiSnapshotCheck.publishedModules(root));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/work/jarvis-model/target/classes",
        "/work/jarvis-model/target/jarvis-model-0.1.0-SNAPSHOT.jar",
        "/m2/dev/jarvis/jarvis-model/0.1.0-SNAPSHOT/jarvis-model-0.1.0-SNAPSHOT.jar"
      })
  void aModuleIsFoundWhereverMavenPutsItsClasses(String entry) {
    List<String> classpath =
        List.of(
            "/work/jarvis-model/target/test-classes",
            "/work/jarvis-model/target/jarvis-model-0.1.0-SNAPSHOT-tests.jar",
            "/work/jarvis-model-extra/target/classes",
            entry);

    assertEquals(
        Optional.of(Path.of(entry)), ApiSnapshotCheck.classesOf("jarvis-model", classpath));
  }

  private static Path snapshot(Path root, List<String> lines) throws Exception {
    Path file = root.resolve("x.api");
    Files.write(file, lines);
    return file;
  }
}
