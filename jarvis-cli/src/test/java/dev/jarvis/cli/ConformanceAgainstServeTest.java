package dev.jarvis.cli;

import static dev.jarvis.cli.ServeCommandTest.sha256;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jarvis-cli conformance} against {@code jarvis-cli serve}, as docs/conformance.md tells a
 * host team to run them: the host holds a Policy of the team's own and assigns it to every human
 * Worker, and the suite is given the same Policy file; it passes, skipping what that Policy does
 * not offer, and checks that a Policy held for someone else governs none of the suite's
 * WorkSessions.
 */
class ConformanceAgainstServeTest {

  /** The team's Policy: fetching a source in its scope is allowed, publishing needs review. */
  static final String POLICY =
      """
      {"id": "policy-sources-001", "owner_worker_id": "worker-team-lead",
       "created_by_actor_id": "actor-team-lead", "autonomy_level": "bounded_execute",
       "allowed_actions": [{"action": "fetch_external_source", "scope_ref": "scope:source-collection"}],
       "denied_actions": [], "review_required_actions": [{"action": "publish_answer"}],
       "risk_classes": ["low", "medium", "high"], "escalation_rules": [],
       "created_at": "2026-01-01T00:00:00Z"}
      """;

  /** Someone else's Policy, which the host holds and assigns to no one. */
  static final String FOREIGN =
      """
      {"id": "policy-foreign-001", "owner_worker_id": "worker-someone-else",
       "created_by_actor_id": "actor-someone-else", "autonomy_level": "full_execute_in_scope",
       "allowed_actions": [{"action": "publish_answer"}], "denied_actions": [],
       "review_required_actions": [], "risk_classes": ["low", "medium", "high"],
       "escalation_rules": [], "created_at": "2026-01-01T00:00:00Z"}
      """;

  static final String RUN = "conformance-cli-1-";

  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int cli(String... args) {
    return new JarvisCli()
        .run(
            args,
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void aHostWithCredentialsAndItsOwnPolicyAssignedToEveryHumanPasses() throws Exception {
    Path policy = Files.writeString(dir.resolve("policy.json"), POLICY);
    Path foreign = Files.writeString(dir.resolve("foreign.json"), FOREIGN);
    Path credentials =
        Files.writeString(
            dir.resolve("credentials.json"),
            """
            [{"token_sha256": "%s", "actors": ["host-admin"], "admin": true},
             {"token_sha256": "%s", "actors": ["%shuman"], "admin": false},
             {"token_sha256": "%s", "actors": ["%sagent"], "admin": false}]
            """
                .formatted(
                    sha256("admin-token"), sha256("human-token"), RUN, sha256("agent-token"), RUN));
    ServeCommandTest.Serving serving =
        ServeCommandTest.Serving.start(
            "--port",
            "0",
            "--credentials",
            credentials.toString(),
            "--store",
            "memory",
            "--policy",
            policy.toString(),
            "--policy",
            foreign.toString(),
            "--assign-policy",
            "policy-sources-001=*");
    try {
      int code =
          cli(
              "conformance",
              "--base-url",
              serving.url(),
              "--run-prefix",
              RUN,
              "--admin-actor",
              "host-admin",
              "--admin-token",
              "admin-token",
              "--human-actor",
              RUN + "human",
              "--human-token",
              "human-token",
              "--agent-actor",
              RUN + "agent",
              "--agent-token",
              "agent-token",
              "--policy-file",
              policy.toString(),
              "--foreign-policy",
              "policy-foreign-001");

      String progress = out.toString(StandardCharsets.UTF_8);
      assertEquals(0, code, progress + err.toString(StandardCharsets.UTF_8));
      assertFalse(progress.contains("FAIL  "), progress);
      assertTrue(
          progress.contains(
              "PASS  policy: createWorkSession by the human under a Policy that does not govern it"
                  + " is refused with missing_policy"),
          progress);
      assertTrue(
          progress.contains(
              "SKIP  policy: an allow decision declaring a risk class the Policy escalates is"
                  + " refused with review_required — Policy policy-sources-001 has no escalation"
                  + " rule"),
          progress);
      // Without an outsider credential no second human can read an inbox of its own.
      assertTrue(
          progress.contains(
              "SKIP  request-inbox: another human's inbox, read with every status, never lists a"
                  + " Request waiting on someone else — no outsider credential given"),
          progress);
      assertTrue(progress.contains(" checks passed, 6 skipped"), progress);
    } finally {
      serving.stop();
    }
  }

  @Test
  void theConformanceHelpNamesThePolicyOptions() {
    assertEquals(0, cli("conformance", "--help"));
    String help = out.toString(StandardCharsets.UTF_8);
    assertTrue(help.contains("--policy-file=FILE"), help);
    assertTrue(help.contains("--foreign-policy=ID"), help);
    assertTrue(help.contains("--assign-policy"), help);
  }
}
