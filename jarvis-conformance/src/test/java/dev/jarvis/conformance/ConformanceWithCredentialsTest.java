package dev.jarvis.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The suite certifies a host that binds each credential to its Actors, given one credential per
 * role, at the root or under a path prefix.
 */
// Its tests run hosts of their own and mostly wait on them: four at a time.
@org.junit.jupiter.api.parallel.Execution(org.junit.jupiter.api.parallel.ExecutionMode.CONCURRENT)
class ConformanceWithCredentialsTest {

  @TempDir Path recorded;

  static Stream<Arguments> mounts() {
    return Stream.of(
        Arguments.of("", true),
        Arguments.of("/jarvis", true),
        Arguments.of("/services/jarvis/v1", false));
  }

  @ParameterizedTest(name = "mounted at \"{0}\", outsider credential given: {1}")
  @MethodSource("mounts")
  void aHostThatBindsCredentialsToActorsPassesWithOneCredentialPerRole(
      String prefix, boolean withOutsider) {
    try (CredentialedHost host =
        new CredentialedHost(prefix, Fixtures.CLOCK, Fixtures.counting("h-"))) {
      RoleCredentials roles =
          new RoleCredentials(
              CredentialedHost.ADMIN,
              CredentialedHost.HUMAN,
              CredentialedHost.AGENT,
              withOutsider ? Optional.of(CredentialedHost.OUTSIDER) : Optional.empty());
      ConformanceReport report =
          ConformanceSuite.run(
              ConformanceConfig.live(URI.create(host.baseUrl()), roles)
                  .runPrefix(CredentialedHost.RUN)
                  .foreignPolicyId(CredentialedHost.FOREIGN_POLICY)
                  .clock(Fixtures.CLOCK)
                  .ids(Fixtures.counting("c"))
                  .build());
      assertEquals(List.of(), report.failures());
      // The agent's own credential cannot open a WorkSession for the suite's human.
      assertTrue(
          report
              .result(
                  "createWorkSession by the agent under a Policy that does not govern the human is"
                      + " refused as under the human's own, with unauthorized_actor")
              .orElseThrow()
              .passed());
      assertTrue(report.results().size() > 40, "ran " + report.results().size() + " checks");
      // On a live service the run touches only what it created: its own Workers and Actors.
      assertFalse(host.registered().isEmpty());
      assertEquals(
          List.of(),
          host.registered().stream().filter(id -> !id.startsWith(CredentialedHost.RUN)).toList());
      assertTrue(
          report
              .result("registerActor accepts a human Actor")
              .orElseThrow()
              .detail()
              .contains("nothing outside this run's prefix " + CredentialedHost.RUN));
    }
  }

  @Test
  void aRoleActorOutsideTheRunPrefixIsRefusedBeforeAnythingIsSent() {
    // Another Actor of the host (a person's, say): registering it would replace it.
    ActorCredential live = new ActorCredential("actor-alice", "alice-token");
    RoleCredentials roles =
        RoleCredentials.of(CredentialedHost.ADMIN, live, CredentialedHost.AGENT);
    var refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ConformanceConfig.live(URI.create("http://127.0.0.1:1"), roles)
                    .runPrefix(CredentialedHost.RUN)
                    .build());
    assertTrue(refused.getMessage().contains("actor-alice"), refused.getMessage());
    // The positive control: the same roles with the human under the prefix are accepted.
    ConformanceConfig.live(
            URI.create("http://127.0.0.1:1"),
            RoleCredentials.of(
                CredentialedHost.ADMIN, CredentialedHost.HUMAN, CredentialedHost.AGENT))
        .runPrefix(CredentialedHost.RUN)
        .build();
  }

  @Test
  void aRunWithOneTokenRegistersOnlyUnderAPrefixOfItsOwn() {
    try (CredentialedHost host =
        new CredentialedHost("", Fixtures.CLOCK, Fixtures.counting("h-"))) {
      ConformanceSuite.run(
          ConformanceConfig.live(URI.create(host.baseUrl()), CredentialedHost.ADMIN.token())
              .clock(Fixtures.CLOCK)
              .ids(Fixtures.counting("c"))
              .build());
      assertFalse(host.registered().isEmpty());
      assertTrue(
          host.registered().stream().allMatch(id -> id.startsWith("conformance-c")),
          host.registered().toString());
    }
  }

  @Test
  void oneTokenBoundToTheAdminAloneCannotCertifyTheHost() {
    try (CredentialedHost host =
        new CredentialedHost("", Fixtures.CLOCK, Fixtures.counting("h-"))) {
      ConformanceReport report =
          ConformanceSuite.run(
              ConformanceConfig.live(URI.create(host.baseUrl()), CredentialedHost.ADMIN.token())
                  .clock(Fixtures.CLOCK)
                  .ids(Fixtures.counting("c"))
                  .build());
      assertFalse(report.passed());
    }
  }

  @Test
  void noTokenOfAnyRoleIsRecordedWithTheExchanges() throws Exception {
    try (CredentialedHost host =
        new CredentialedHost("/jarvis", Fixtures.CLOCK, Fixtures.counting("h-"))) {
      ConformanceSuite.run(
          ConformanceConfig.live(
                  URI.create(host.baseUrl()),
                  RoleCredentials.of(
                      CredentialedHost.ADMIN, CredentialedHost.HUMAN, CredentialedHost.AGENT))
              .runPrefix(CredentialedHost.RUN)
              .clock(Fixtures.CLOCK)
              .ids(Fixtures.counting("c"))
              .recordTo(recorded)
              .build());
    }
    try (Stream<Path> files = Files.walk(recorded)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        String text = Files.readString(file);
        for (ActorCredential c :
            List.of(CredentialedHost.ADMIN, CredentialedHost.HUMAN, CredentialedHost.AGENT)) {
          assertFalse(text.contains(c.token()), file + " holds a token");
        }
      }
    }
  }

  @Test
  void aCredentialNeverShowsItsTokenInText() {
    assertFalse(CredentialedHost.ADMIN.toString().contains(CredentialedHost.ADMIN.token()));
  }
}
