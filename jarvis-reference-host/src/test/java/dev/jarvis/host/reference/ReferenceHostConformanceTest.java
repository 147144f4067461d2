package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.conformance.ConformanceCommand;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.host.WorkSessionGovernance;
import dev.jarvis.samples.SampleRecords;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The conformance suite, run the way a host team runs it, passes against the reference host on each
 * of its HTTP runtimes: holding the SDK's sample Policy, which the suite assumes when named by id
 * alone, and holding another Policy under the same id, which the suite is given as a file and takes
 * its actions from. The host assigns the Policy to every human Worker, as a conformance run needs
 * (the suite's human is new in each run), and holds a Policy of someone else's for the checks that
 * the suite's WorkSessions cannot be opened under it.
 */
class ReferenceHostConformanceTest {

  /**
   * A team's Policy under the sample's id: fetching an external source is allowed in its collection
   * scope only, publishing an answer needs review, nothing else is allowed.
   */
  static final String SOURCE_COLLECTION =
      """
      {"id": "policy-bounded-001", "owner_worker_id": "worker-team-lead",
       "created_by_actor_id": "actor-team-lead", "autonomy_level": "bounded_execute",
       "allowed_actions": [{"action": "fetch_external_source", "scope_ref": "scope:source-collection"}],
       "denied_actions": [], "review_required_actions": [{"action": "publish_answer"}],
       "risk_classes": ["low", "medium", "high"], "escalation_rules": [],
       "created_at": "2026-01-01T00:00:00Z"}
      """;

  static final String FOREIGN = "policy-foreign-001";

  /** The Policy the host holds for the suite, and whether the suite is given its file. */
  enum HeldPolicy {
    SAMPLE_ASSUMED,
    ANOTHER_GIVEN_AS_A_FILE
  }

  @TempDir Path dir;

  @ParameterizedTest(name = "on {0}")
  @EnumSource(HttpRuntime.class)
  void theReferenceHostPassesEveryConformanceCheckItCanRun(HttpRuntime runtime) throws Exception {
    String progress = run(runtime, HeldPolicy.SAMPLE_ASSUMED);
    assertTrue(progress.contains("NOTE  The suite assumed Policy policy-bounded-001"), progress);
    if (runtime == HttpRuntime.UNDERTOW) {
      // Undertow declares event-stream: every check of the group runs, the expiry one included.
      assertFalse(progress.contains("SKIP  event-stream"), progress);
      assertTrue(
          progress.contains(
              "PASS  event-stream: a stream carries request.expired when a Request it watches"
                  + " expires, with no other call to the WorkSession"),
          progress);
    }
  }

  @ParameterizedTest(name = "on {0}")
  @EnumSource(HttpRuntime.class)
  void theReferenceHostHoldingAnotherPolicyPassesWhenTheSuiteIsGivenIt(HttpRuntime runtime)
      throws Exception {
    String progress = run(runtime, HeldPolicy.ANOTHER_GIVEN_AS_A_FILE);
    assertTrue(
        progress.contains(
            "SKIP  policy: an allow decision for an action the Policy denies is refused with"
                + " policy_denied — Policy policy-bounded-001 denies no action by a rule"),
        progress);
    assertTrue(
        progress.contains(
            "PASS  policy: a second agent action under one allow decision is refused with"
                + " missing_policy_decision"),
        progress);
  }

  /** Runs the suite through its command line against a fresh host; answers its progress. */
  private String run(HttpRuntime runtime, HeldPolicy held) throws Exception {
    JsonNode policy =
        held == HeldPolicy.SAMPLE_ASSUMED
            ? SampleRecords.policy()
            : JarvisJson.mapper().readTree(SOURCE_COLLECTION);
    ObjectNode foreign = SampleRecords.policy();
    foreign.put("id", FOREIGN);
    foreign.put("owner_worker_id", "worker-someone-else");
    Path reports = Files.createDirectories(dir.resolve(runtime + "-" + held));
    try (ReferenceHost host =
        ReferenceHost.start(
            ReferenceHostConfig.demo("conformance-token")
                .runtime(runtime)
                .policy(policy)
                .policy(foreign)
                .host(
                    b ->
                        b.governance(
                            WorkSessionGovernance.NONE.assignPolicyToEveryHuman(
                                SampleRecords.POLICY_ID)))
                .build())) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      List<String> args =
          new ArrayList<>(
              List.of(
                  "--base-url",
                  host.baseUri().toString(),
                  "--token",
                  "conformance-token",
                  "--actor",
                  "host-admin",
                  "--foreign-policy",
                  FOREIGN,
                  "--report-dir",
                  reports.toString()));
      if (held == HeldPolicy.ANOTHER_GIVEN_AS_A_FILE) {
        Path file = Files.writeString(dir.resolve(runtime + "-policy.json"), SOURCE_COLLECTION);
        args.addAll(List.of("--policy-file", file.toString()));
      }

      int code =
          ConformanceCommand.run(
              args.toArray(String[]::new),
              new PrintStream(out, true, StandardCharsets.UTF_8),
              new PrintStream(err, true, StandardCharsets.UTF_8));

      String progress = out.toString(StandardCharsets.UTF_8);
      assertEquals(0, code, progress + err.toString(StandardCharsets.UTF_8));
      assertFalse(progress.contains("FAIL  "), progress);
      assertTrue(progress.contains("PASS"), progress);
      try (var files = Files.list(reports)) {
        assertEquals(2, files.count(), "a JUnit XML and a Markdown report");
      }
      return progress;
    }
  }
}
