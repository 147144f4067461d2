package dev.jarvis.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.testkit.JarvisHostStub;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

// Its tests run hosts of their own and mostly wait on them: four at a time.
@org.junit.jupiter.api.parallel.Execution(org.junit.jupiter.api.parallel.ExecutionMode.CONCURRENT)
class ConformanceCommandTest {

  @RegisterExtension
  final JarvisHostStub stub =
      JarvisHostStub.builder()
          .clock(Fixtures.CLOCK)
          .ids(Fixtures.counting("host-"))
          // The suite sends bad requests on purpose: judging their refusals is its job.
          .failOnReceivedViolations(false)
          .build();

  @TempDir Path reports;

  private final Fixtures.Captured out = new Fixtures.Captured();
  private final Fixtures.Captured err = new Fixtures.Captured();

  private int run(String... args) {
    return ConformanceCommand.run(
        args, out.stream, err.stream, Fixtures.CLOCK, Fixtures.counting("cli-"));
  }

  @Test
  void aConformingHostExitsZeroAndLeavesBothReports() {
    int code =
        run("--base-url", stub.baseUrl(), "--token", "t", "--report-dir", reports.toString());
    assertEquals(0, code, err.text() + out.text());
    assertTrue(out.text().startsWith("PASS  setup:"));
    assertTrue(Files.exists(reports.resolve(ConformanceReport.JUNIT_XML)));
    assertTrue(Files.exists(reports.resolve(ConformanceReport.MARKDOWN)));
  }

  @Test
  void aFailingCheckExitsOne() {
    try (BrokenHost broken =
        new BrokenHost(
            BrokenHost.Defect.WRONG_ERROR_IDS, Fixtures.CLOCK, Fixtures.counting("b-"))) {
      assertEquals(1, run("--base-url", broken.baseUrl(), "--token", "t"));
      assertTrue(out.text().contains("FAIL  "));
    }
  }

  @Test
  void anUnreachableHostExitsTwo() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    assertEquals(2, run("--base-url", "http://127.0.0.1:" + port, "--token", "t"));
    assertTrue(err.text().contains("cannot reach"), err.text());
  }

  @ParameterizedTest(name = "arguments [{0}]")
  @ValueSource(
      strings = {
        "",
        "--token t",
        "--base-url http://127.0.0.1:1",
        "--base-url not-a-url --token t",
        "--base-url http://127.0.0.1:1 --token",
        "--verbose yes --recorded dir",
        "--base-url http://127.0.0.1:1 --admin-actor a --admin-token t",
        "--base-url http://127.0.0.1:1 --admin-actor a --admin-token t --human-actor h"
            + " --human-token t2 --agent-actor g",
        "--base-url http://127.0.0.1:1 --token t --admin-actor a --admin-token t --human-actor h"
            + " --human-token t2 --agent-actor g --agent-token t3",
        "--base-url http://127.0.0.1:1 --admin-actor a --admin-token t --human-actor a"
            + " --human-token t2 --agent-actor g --agent-token t3",
        "--recorded dir --admin-actor a --admin-token t --human-actor h --human-token t2"
            + " --agent-actor g --agent-token t3",
        // Per-role Actors outside the run's prefix (or none given): never registered again.
        "--base-url http://127.0.0.1:1 --admin-actor a --admin-token t --human-actor h"
            + " --human-token t2 --agent-actor g --agent-token t3",
        "--base-url http://127.0.0.1:1 --run-prefix r1- --admin-actor a --admin-token t"
            + " --human-actor r1-h --human-token t2 --agent-actor g --agent-token t3",
        // The Policy's JSON must be there and be a Policy; both options need a live host.
        "--base-url http://127.0.0.1:1 --token t --policy-file /no/such/policy.json",
        "--recorded dir --policy-file policy.json",
        "--recorded dir --foreign-policy policy-foreign-001",
        "--base-url http://127.0.0.1:1 --token t --foreign-policy policy-bounded-001"
      })
  void badArgumentsPrintTheUsageAndExitTwo(String args) {
    assertEquals(2, run(args.isEmpty() ? new String[0] : args.split(" ")));
    assertTrue(err.text().contains("usage: conformance"), err.text());
  }

  @Test
  void aHostBindingCredentialsToActorsPassesWithPerRoleFlags() {
    try (CredentialedHost host =
        new CredentialedHost("/jarvis", Fixtures.CLOCK, Fixtures.counting("h-"))) {
      int code =
          run(
              "--base-url", host.baseUrl(),
              "--run-prefix", CredentialedHost.RUN,
              "--admin-actor", CredentialedHost.ADMIN.actorId(),
              "--admin-token", CredentialedHost.ADMIN.token(),
              "--human-actor", CredentialedHost.HUMAN.actorId(),
              "--human-token", CredentialedHost.HUMAN.token(),
              "--agent-actor", CredentialedHost.AGENT.actorId(),
              "--agent-token", CredentialedHost.AGENT.token(),
              "--outsider-actor", CredentialedHost.OUTSIDER.actorId(),
              "--outsider-token", CredentialedHost.OUTSIDER.token());
      assertEquals(0, code, err.text() + out.text());
      assertFalse(out.text().contains(CredentialedHost.HUMAN.token()));
    }
  }

  @Test
  void aPolicyFileThatIsNoPolicyIsRefusedBeforeAnythingIsSent() throws Exception {
    Path file = Files.writeString(reports.resolve("policy.json"), "{\"id\": \"policy-1\"}");
    assertEquals(
        2,
        run("--base-url", "http://127.0.0.1:1", "--token", "t", "--policy-file", file.toString()));
    assertTrue(err.text().contains("not a valid Policy"), err.text());
  }

  @Test
  void aPolicyFileAndAPolicyIdOfAnotherPolicyAreRefusedTogether() throws Exception {
    Path file = Files.writeString(reports.resolve("policy.json"), Policies.SOURCE_COLLECTION);
    assertEquals(
        2,
        run(
            "--base-url",
            "http://127.0.0.1:1",
            "--token",
            "t",
            "--policy",
            "policy-bounded-001",
            "--policy-file",
            file.toString()));
    assertTrue(err.text().contains("give the file alone"), err.text());
  }

  @Test
  void aRecordedDirectoryIsJudgedWithoutAHost() throws Exception {
    Path recorded = Files.createDirectory(reports.resolve("recorded"));
    assertEquals(1, run("--recorded", recorded.toString()));
    assertTrue(out.text().contains("FAIL  recorded: the directory holds recorded exchanges"));
  }

  @Test
  void theArgumentsParseIntoTheOptionsValueACallersOwnParserWouldBuild() {
    ConformanceOptions parsed =
        ConformanceOptions.parse(
            new String[] {
              "--base-url",
              "http://127.0.0.1:1",
              "--report-dir",
              "out",
              "--run-prefix",
              "run-1-",
              "--admin-actor",
              "a",
              "--admin-token",
              "secret-a",
              "--human-actor",
              "h",
              "--human-token",
              "secret-h"
            });
    ConformanceOptions built =
        ConformanceOptions.builder()
            .baseUrl("http://127.0.0.1:1")
            .runPrefix("run-1-")
            .reportDir(Path.of("out"))
            .roleActor("admin", "a")
            .roleToken("admin", "secret-a")
            .roleActor("human", "h")
            .roleToken("human", "secret-h")
            .build();
    assertEquals(built, parsed);
    assertFalse(parsed.toString().contains("secret"), parsed.toString());
    ConformanceConfig config =
        ConformanceConfig.live(java.net.URI.create("http://127.0.0.1:1"), "secret-token").build();
    assertFalse(config.toString().contains("secret"), config.toString());
  }

  @Test
  void anOptionsValueCopiedThroughItsBuilderIsEqualAndChangesOnlyWhatIsSetAgain() {
    ConformanceOptions options =
        ConformanceOptions.parse(
            new String[] {"--base-url", "http://127.0.0.1:1", "--token", "t", "--actor", "a"});
    assertEquals(options, options.toBuilder().build());
    ConformanceOptions other = options.toBuilder().actor("b").build();
    assertEquals(java.util.Optional.of("b"), other.actor());
    assertEquals(options.token(), other.token());
    assertEquals(java.util.Optional.of("a"), options.actor());
  }

  @Test
  void aRoleNotAmongTheSuitesRolesIsRefusedWhenBuilt() {
    ConformanceOptions.Builder builder = ConformanceOptions.builder().roleActor("auditor", "x");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, builder::build);
    assertTrue(e.getMessage().contains("no role auditor"), e.getMessage());
  }

  @Test
  void anOptionsValueRunsTheSuiteAsTheArgumentsDo() {
    ConformanceOptions options =
        ConformanceOptions.parse(new String[] {"--base-url", stub.baseUrl(), "--token", "t"});
    int code =
        ConformanceCommand.run(
            options, out.stream, err.stream, Fixtures.CLOCK, Fixtures.counting("opt-"));
    assertEquals(0, code, err.text() + out.text());
    assertTrue(out.text().startsWith("PASS  setup:"));
  }
}
