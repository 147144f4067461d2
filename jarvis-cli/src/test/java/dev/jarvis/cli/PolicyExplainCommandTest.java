package dev.jarvis.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jarvis-cli policy explain}: a Policy's author sees why an action gets its result. */
class PolicyExplainCommandTest {

  private static final String POLICY =
      """
      {"id": "policy-1", "owner_worker_id": "worker-human-1", "created_by_actor_id": "actor-human-1",
       "autonomy_level": "bounded_execute",
       "allowed_actions": [{"action": "summarize"},
                           {"action": "run_query", "constraints": [{"kind": "read_only"}]}],
       "denied_actions": [{"action": "delete_repository"}],
       "review_required_actions": [{"action": "summarize", "scope_ref": "scope:legal"}],
       "risk_classes": ["low", "medium", "high"],
       "escalation_rules": [
         {"trigger": "high risk", "risk_class": "high", "required_action": "require_review"}],
       "created_at": "2026-01-01T00:00:00Z"}
      """;

  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return new JarvisCli()
        .run(
            args,
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  /** {@code policy explain --policy FILE} of {@code policyJson}, then {@code more}. */
  private int explain(String policyJson, String... more) throws IOException {
    String[] args = new String[more.length + 4];
    args[0] = "policy";
    args[1] = "explain";
    args[2] = "--policy";
    args[3] = policyFile(policyJson);
    System.arraycopy(more, 0, args, 4, more.length);
    return run(args);
  }

  private String policyFile(String json) throws IOException {
    return Files.writeString(dir.resolve("policy.json"), json).toString();
  }

  private String stdout() {
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void explainPrintsTheResultTheDecidingRuleEveryMatchAndBothReasons() throws IOException {
    int code = explain(POLICY, "--action", "summarize", "--scope", "scope:legal", "--risk", "high");

    assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
    assertEquals(
        """
        result: review_required
        rule: /review_required_actions/0
        matched: /review_required_actions/0, /escalation_rules/0
        for the operator: The Policy requires a human's review for summarize. \
        (rule /review_required_actions/0)
        for the agent: summarize needs a human's approval first: The Policy requires a human's \
        review for summarize.
        """,
        stdout());
  }

  @Test
  void anActionNoRuleNamesIsExplainedAsDefaultDeny() throws IOException {
    assertEquals(0, explain(POLICY, "--action", "Summarize", "--risk", "low"));

    assertTrue(stdout().startsWith("result: deny\nrule: /allowed_actions\n"), stdout());
    assertTrue(stdout().contains("default deny"), stdout());
  }

  @Test
  void aConstrainedRuleIsExplainedAsNarrow() throws IOException {
    explain(POLICY, "--action", "run_query", "--risk", "low");

    assertTrue(stdout().startsWith("result: narrow\nrule: /allowed_actions/1\n"), stdout());
  }

  @Test
  void theAgentWorkersStricterAutonomyIsApplied() throws IOException {
    explain(POLICY, "--action", "summarize", "--risk", "low", "--agent-autonomy", "propose_only");

    assertTrue(stdout().startsWith("result: deny\nrule: /agent_worker/autonomy_level\n"), stdout());
  }

  @Test
  void restrictedDataIsExplainedAsNeedingAHuman() throws IOException {
    explain(
        POLICY,
        "--action",
        "summarize",
        "--scope",
        "scope:notes",
        "--risk",
        "low",
        "--data-sensitivity",
        "restricted");

    assertTrue(stdout().contains("matched: /allowed_actions/0, /data_sensitivity\n"), stdout());
  }

  @Test
  void aFileThatIsNoPolicyIsRefusedByItsErrorIdInOneLine() throws IOException {
    int code = explain("{\"id\": \"p\"}", "--action", "x", "--risk", "low");

    assertEquals(2, code);
    String stderr = err.toString(StandardCharsets.UTF_8);
    assertTrue(stderr.startsWith("jarvis-cli policy explain: "), stderr);
    assertEquals(1, stderr.lines().count(), stderr);
  }

  @Test
  void aRiskClassTheSpecDoesNotHaveIsAUsageErrorNamingTheOption() throws IOException {
    int code = explain(POLICY, "--action", "x", "--risk", "extreme");

    assertEquals(2, code);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("--risk"));
  }
}
