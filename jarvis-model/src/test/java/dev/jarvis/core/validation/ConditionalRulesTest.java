package dev.jarvis.core.validation;

import static dev.jarvis.core.validation.Expect.VALIDATOR;
import static dev.jarvis.core.validation.Payloads.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisSpec;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each of the spec's 16 {@code if/then} rules, broken and satisfied. */
class ConditionalRulesTest {

  private static final String AT = "2026-06-12T18:30:00Z";

  /**
   * (rule, schema, allOf index, how to break it, how to satisfy it, error_id, pointer).
   *
   * <p>Both edits start from a valid payload; the satisfied one reaches the same state properly.
   */
  static Stream<Arguments> rules() {
    return Stream.of(
        rule(
            "a deny PolicyDecision must name its Request",
            "PolicyDecision",
            0,
            n -> n.remove("request_id"),
            n -> n.put("result", "deny"),
            "request_unresolved",
            "/request_id"),
        rule(
            "a review_required PolicyDecision must name its Request",
            "PolicyDecision",
            1,
            n -> n.put("result", "review_required").remove("request_id"),
            n -> n.put("result", "review_required"),
            "request_unresolved",
            "/request_id"),
        rule(
            "a pending or acknowledged Request carries no resolution",
            "Request",
            0,
            n -> n.put("status", "acknowledged").put("resolved_at", AT),
            n -> n.put("status", "acknowledged"),
            "invalid_request_transition",
            "/resolved_at"),
        rule(
            "a terminal Request has resolved_at",
            "Request",
            1,
            n -> n.put("status", "expired").put("closed_by_event_ref", "event:expired"),
            n ->
                n.put("status", "expired")
                    .put("closed_by_event_ref", "event:expired")
                    .put("resolved_at", AT),
            "invalid_request_transition",
            "/resolved_at"),
        rule(
            "a Request resolved by review names the Review",
            "Request",
            2,
            n -> n.put("status", "approved").put("resolved_at", AT),
            n ->
                n.put("status", "approved")
                    .put("resolved_at", AT)
                    .put("resolved_by_review_id", "review-network-001"),
            "missing_review_resolution",
            "/resolved_by_review_id"),
        rule(
            "a Request resolved by takeover names the Takeover",
            "Request",
            3,
            n -> n.put("status", "takeover").put("resolved_at", AT),
            n ->
                n.put("status", "takeover")
                    .put("resolved_at", AT)
                    .put("resolved_by_takeover_id", "takeover-001"),
            "missing_takeover_resolution",
            "/resolved_by_takeover_id"),
        rule(
            "an expired, cancelled or superseded Request names its closing event",
            "Request",
            4,
            n -> n.put("status", "cancelled").put("resolved_at", AT),
            n ->
                n.put("status", "cancelled")
                    .put("resolved_at", AT)
                    .put("closed_by_event_ref", "event:cancelled"),
            "invalid_request_transition",
            "/closed_by_event_ref"),
        rule(
            "a superseded Request names its successor",
            "Request",
            5,
            n ->
                n.put("status", "superseded")
                    .put("resolved_at", AT)
                    .put("closed_by_event_ref", "event:superseded"),
            n ->
                n.put("status", "superseded")
                    .put("resolved_at", AT)
                    .put("closed_by_event_ref", "event:superseded")
                    .put("superseded_by_request_id", "req-network-002"),
            "missing_superseding_request",
            "/superseded_by_request_id"),
        rule(
            "an approve or narrow Review carries an ApprovalScope",
            "Review",
            0,
            n -> n.put("decision", "narrow").remove("approval_scope"),
            n -> n.put("decision", "narrow"),
            "invalid_approval_scope",
            "/approval_scope"),
        rule(
            "a deny, answer, correct, takeover or needs_revision Review carries no ApprovalScope",
            "Review",
            1,
            n -> n.put("decision", "deny"),
            n -> n.put("decision", "deny").remove("approval_scope"),
            "invalid_approval_scope",
            "/approval_scope"),
        rule(
            "a takeover Review names the Takeover",
            "Review",
            2,
            n -> n.put("decision", "takeover").remove("approval_scope"),
            n -> {
              n.put("decision", "takeover").remove("approval_scope");
              n.put("takeover_id", "takeover-001");
            },
            "missing_takeover_resolution",
            "/takeover_id"),
        rule(
            "a resumed Takeover references its reconciliation",
            "Takeover",
            0,
            n ->
                n.put("state", "resumed")
                    .put("resumed_by_actor_id", "actor-agent-001")
                    .put("resolved_at", AT),
            n ->
                n.put("state", "resumed")
                    .put("resumed_by_actor_id", "actor-agent-001")
                    .put("resolved_at", AT)
                    .set("reconciliation_refs", strings("reconciliation:diff-001")),
            "missing_reconciliation_refs",
            "/reconciliation_refs"),
        rule(
            "a locked Takeover carries no resumption yet",
            "Takeover",
            1,
            n -> n.put("resumed_by_actor_id", "actor-agent-001"),
            n -> n.put("state", "human_active"),
            "invalid_transition",
            "/resumed_by_actor_id"),
        rule(
            "a shared Contribution names two individual contributors",
            "Contribution",
            0,
            n -> n.put("contributor_type", "shared"),
            n -> {
              n.put("contributor_type", "shared");
              Payloads.array(n, "contributor_refs")
                  .addObject()
                  .put("worker_id", "worker-agent-001")
                  .put("actor_id", "actor-agent-001")
                  .put("contribution_role", "agent");
            },
            "shared_contribution_without_individual_refs",
            "/contributor_refs"),
        rule(
            "an accepted MemoryProposal references its review",
            "MemoryProposal",
            0,
            n -> n.put("status", "accepted"),
            n -> n.put("status", "accepted").set("review_refs", strings("review-001")),
            "silent_memory_mutation",
            "/review_refs"),
        rule(
            "an accepted SkillProposal references its review",
            "SkillProposal",
            0,
            n -> n.put("status", "accepted"),
            n -> n.put("status", "accepted").set("review_refs", strings("review-001")),
            "silent_skill_activation",
            "/review_refs"));
  }

  private static Arguments rule(
      String rule,
      String schema,
      int allOfIndex,
      Consumer<ObjectNode> broken,
      Consumer<ObjectNode> satisfied,
      String errorId,
      String pointer) {
    return Arguments.of(rule, schema, allOfIndex, broken, satisfied, errorId, pointer);
  }

  @ParameterizedTest(name = "broken: {0} ({5} at {6})")
  @MethodSource("rules")
  void brokenRuleIsReportedWithItsErrorIdAtItsField(
      String rule,
      String schema,
      int allOfIndex,
      Consumer<ObjectNode> broken,
      Consumer<ObjectNode> satisfied,
      String errorId,
      String pointer) {
    Expect.only(VALIDATOR.validate(schema, Payloads.edited(schema, broken)), errorId, pointer);
  }

  @ParameterizedTest(name = "satisfied: {0}")
  @MethodSource("rules")
  void satisfiedRuleIsAccepted(
      String rule,
      String schema,
      int allOfIndex,
      Consumer<ObjectNode> broken,
      Consumer<ObjectNode> satisfied,
      String errorId,
      String pointer) {
    Expect.clean(VALIDATOR.validate(schema, Payloads.edited(schema, satisfied)));
  }

  @Test
  void theTableCoversEveryIfThenRuleOfTheSpec() {
    Set<String> inSpec = new TreeSet<>();
    for (Map.Entry<String, JsonNode> schema :
        JarvisSpec.tree().path("components").path("schemas").properties()) {
      JsonNode allOf = schema.getValue().path("allOf");
      for (int i = 0; i < allOf.size(); i++) {
        if (allOf.get(i).has("if")) {
          inSpec.add(schema.getKey() + "/allOf/" + i);
        }
      }
    }
    Set<String> tested =
        rules()
            .map(a -> a.get()[1] + "/allOf/" + a.get()[2])
            .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(16, inSpec.size());
    assertEquals(inSpec, tested);
  }

  @Test
  void aRequestWithoutStatusIsReportedOnceNotOncePerStatusRule() {
    // JSON Schema's `if` holds vacuously when the tested property is absent, which would fire
    // every `then` of Request; the missing status is the one problem.
    Expect.only(
        VALIDATOR.validate("Request", Payloads.edited("Request", n -> n.remove("status"))),
        "unknown_state",
        "/status");
  }

  @Test
  void aResumedTakeoverWithoutWhoResumedItIsAnInvalidTransition() {
    Expect.only(
        VALIDATOR.validate(
            "Takeover",
            Payloads.edited(
                "Takeover",
                n ->
                    n.put("state", "resumed")
                        .put("resolved_at", AT)
                        .set("reconciliation_refs", strings("reconciliation:diff-001")))),
        "invalid_transition",
        "/resumed_by_actor_id");
  }
}
