package dev.jarvis.host.reference;

import static dev.jarvis.host.reference.Steps.EXPORT;
import static dev.jarvis.host.reference.Steps.append;
import static dev.jarvis.host.reference.Steps.complete;
import static dev.jarvis.host.reference.Steps.created;
import static dev.jarvis.host.reference.Steps.decisionAndRequest;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.host.AgentActions;
import dev.jarvis.host.RecordKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The protocol state rules of the reference host, each shown over HTTP. */
class ProtocolStateTest {

  private static String status(TestHost t) {
    return t.get("/work-sessions/" + Payloads.WS, Payloads.HUMAN).json().path("status").asText();
  }

  private static JsonNode stored(TestHost t, RecordKind kind, String id) {
    return t.host
        .host()
        .config()
        .stores()
        .records()
        .find(kind, Payloads.WS, id)
        .orElseThrow()
        .body();
  }

  // --- WorkSession status, terminal states, export and seal ---

  @Test
  void aCompletedEventMakesTheWorkSessionTerminalAndFurtherMutationsAreRefused() {
    try (TestHost t = TestHost.withSession()) {
      created(complete(t));
      assertEquals("completed", status(t));
      Answer a =
          t.scopedPost(
              "/policy-decisions",
              Payloads.AGENT,
              Payloads.decision("pd-late", "summarize", "allow"));
      assertEquals("mutation_after_closed", a.errorId());
    }
  }

  @Test
  void aTerminalWorkSessionCanBeClosedAndThenTakesNothing() {
    try (TestHost t = TestHost.withSession()) {
      created(complete(t));
      created(
          append(
              t,
              Payloads.HUMAN,
              Payloads.event("event-closed", "work_session.closed", Payloads.HUMAN)));
      assertEquals("closed", status(t));
      Answer a =
          append(t, Payloads.HUMAN, Payloads.event("event-after", "note.added", Payloads.HUMAN));
      assertEquals("mutation_after_closed", a.errorId());
    }
  }

  @Test
  void aWorkSessionWithAnOpenRequestCannotComplete() {
    try (TestHost t = TestHost.withSession()) {
      created(decisionAndRequest(t, "pd-1", "req-1"));
      assertEquals("request_unresolved", complete(t).errorId());
    }
  }

  @Test
  void aLearningRecordCitingAnUnknownEventIsRefused() {
    try (TestHost t = TestHost.withSession()) {
      Answer a =
          t.scopedPost(
              "/learning-records",
              Payloads.HUMAN,
              Payloads.learningRecord("lr-1", "event-nowhere", Payloads.HUMAN));
      assertEquals("missing_jarvis_event", a.errorId());
    }
  }

  @Test
  void anActiveWorkSessionCannotBeClosed() {
    try (TestHost t = TestHost.withSession()) {
      Answer a =
          append(
              t,
              Payloads.HUMAN,
              Payloads.event("event-closed", "work_session.closed", Payloads.HUMAN));
      assertEquals("invalid_transition", a.errorId());
    }
  }

  @Test
  void exportFromANonTerminalWorkSessionIsRefused() {
    try (TestHost t = TestHost.withSession()) {
      assertEquals("invalid_export_state", t.get(EXPORT, Payloads.HUMAN).errorId());
    }
  }

  @Test
  void exportWithoutAnyContributionIsRefused() {
    try (TestHost t = TestHost.withSession()) {
      created(complete(t));
      assertEquals("invalid_evidence_export_state", t.get(EXPORT, Payloads.HUMAN).errorId());
    }
  }

  @Test
  void exportFromATerminalWorkSessionSealsItAndAnswersTheSameManifestAgain() {
    try (TestHost t = TestHost.withSession()) {
      String genesisEvent =
          t.host.host().config().stores().sessions().events(Payloads.WS).get(0).path("id").asText();
      created(
          t.scopedPost(
              "/contributions",
              Payloads.HUMAN,
              Payloads.contribution("contribution-1", genesisEvent)));
      created(complete(t));
      Answer first = t.get(EXPORT, Payloads.HUMAN);
      assertEquals(200, first.status(), first.text());
      JsonNode manifest = first.json();
      assertEquals(t.cursor().lastEventHash(), manifest.path("event_chain_root").asText());
      assertEquals("contribution-1", manifest.path("contribution_refs").get(0).asText());
      assertEquals(3, manifest.path("evidence_item_refs").get(0).path("source_event_refs").size());
      t.clock.advance(Duration.ofMinutes(1));
      assertArrayEquals(first.bytes(), t.get(EXPORT, Payloads.HUMAN).bytes());
      Answer after =
          append(
              t,
              Payloads.HUMAN,
              Payloads.event("event-closed", "work_session.closed", Payloads.HUMAN));
      assertEquals("sealed_work_session_mutation", after.errorId());
    }
  }

  // --- OutcomeReport ---

  @Test
  void anOutcomeReportBeforeExportIsRefused() {
    try (TestHost t = TestHost.withSession()) {
      Answer a =
          t.send(
              "POST",
              "/outcome-reports",
              t.mutation(Payloads.HUMAN),
              Payloads.outcomeReport("outcome-1", "lr-1").toString());
      assertEquals("outcome_report_requires_terminal_source", a.errorId());
    }
  }

  @Test
  void anOutcomeReportNeedsLearningRecordsOfTheExportedWorkSession() {
    try (TestHost t = TestHost.withSession()) {
      String genesisEvent =
          t.host.host().config().stores().sessions().events(Payloads.WS).get(0).path("id").asText();
      created(
          t.scopedPost(
              "/contributions",
              Payloads.HUMAN,
              Payloads.contribution("contribution-1", genesisEvent)));
      created(
          t.scopedPost(
              "/learning-records",
              Payloads.HUMAN,
              Payloads.learningRecord("lr-1", genesisEvent, Payloads.HUMAN)));
      created(complete(t));
      assertEquals(200, t.get(EXPORT, Payloads.HUMAN).status());
      Answer unknown =
          t.send(
              "POST",
              "/outcome-reports",
              t.mutation(Payloads.HUMAN),
              Payloads.outcomeReport("outcome-1", "lr-nowhere").toString());
      assertEquals("outcome_report_without_learning_record", unknown.errorId());
      Answer accepted =
          t.send(
              "POST",
              "/outcome-reports",
              t.mutation(Payloads.HUMAN),
              Payloads.outcomeReport("outcome-1", "lr-1").toString());
      assertEquals(202, accepted.status(), accepted.text());
    }
  }

  // --- PolicyDecision ---

  @Test
  void aDecisionWhoseActionHashIsNotTheCoreHashIsRefused() {
    try (TestHost t = TestHost.withSession()) {
      ObjectNode d = Payloads.decision("pd-1", "summarize", "allow");
      d.put("normalized_action_hash", "hash:action-fetch-external-source");
      assertEquals(
          "approval_scope_mismatch",
          t.scopedPost("/policy-decisions", Payloads.AGENT, d).errorId());
    }
  }

  @Test
  void aDecisionAllowingWhatThePolicyDeniesIsRefused() {
    try (TestHost t = TestHost.withSession()) {
      Answer a =
          t.scopedPost(
              "/policy-decisions",
              Payloads.AGENT,
              Payloads.decision("pd-1", "delete_repository", "allow"));
      assertEquals("policy_denied", a.errorId());
    }
  }

  @Test
  void aDecisionAllowingWhatThePolicySendsToReviewIsRefused() {
    try (TestHost t = TestHost.withSession()) {
      Answer a =
          t.scopedPost(
              "/policy-decisions",
              Payloads.AGENT,
              Payloads.decision("pd-1", "fetch_external_source", "allow"));
      assertEquals("review_required", a.errorId());
    }
  }

  @Test
  void aDecisionUnderAnotherPolicyIsRefused() {
    try (TestHost t = TestHost.withSession()) {
      ObjectNode d = Payloads.decision("pd-1", "summarize", "allow");
      d.put("policy_id", "policy-other");
      assertEquals(
          "missing_policy", t.scopedPost("/policy-decisions", Payloads.AGENT, d).errorId());
    }
  }

  // --- Request lifecycle ---

  @Test
  void aRequestMakesTheWorkSessionWaitOnItsHuman() {
    try (TestHost t = TestHost.withSession()) {
      created(decisionAndRequest(t, "pd-1", "req-1"));
      assertEquals("waiting_on_human", status(t));
    }
  }

  @Test
  void aRequestWithoutARecordedDecisionIsRefused() {
    try (TestHost t = TestHost.withSession()) {
      Answer a =
          t.scopedPost(
              "/requests",
              Payloads.AGENT,
              Payloads.request("req-1", "pd-nowhere", "fetch_external_source"));
      assertEquals("missing_policy_decision", a.errorId());
    }
  }

  @Test
  void aRequestIsCreatedPendingOnly() {
    try (TestHost t = TestHost.withSession()) {
      ObjectNode d = Payloads.decision("pd-1", "fetch_external_source", "review_required");
      created(t.scopedPost("/policy-decisions", Payloads.AGENT, d));
      ObjectNode r = Payloads.request("req-pd-1", "pd-1", "fetch_external_source");
      r.put("status", "acknowledged");
      assertEquals(
          "invalid_request_transition", t.scopedPost("/requests", Payloads.AGENT, r).errorId());
    }
  }

  @Test
  void aSecondRequestWithTheSameIdIsADuplicate() {
    try (TestHost t = TestHost.withSession()) {
      created(decisionAndRequest(t, "pd-1", "req-1"));
      Answer a =
          t.scopedPost(
              "/requests",
              Payloads.AGENT,
              Payloads.request("req-1", "pd-1", "fetch_external_source"));
      assertEquals("duplicate_request_mismatch", a.errorId());
    }
  }

  @Test
  void aSecondOpenRequestForOneDecisionIsADuplicate() {
    try (TestHost t = TestHost.withSession()) {
      created(decisionAndRequest(t, "pd-1", "req-1"));
      Answer a =
          t.scopedPost(
              "/requests",
              Payloads.AGENT,
              Payloads.request("req-2", "pd-1", "fetch_external_source"));
      assertEquals("duplicate_request_mismatch", a.errorId());
    }
  }

  @Test
  void moreOpenRequestsThanThePolicyAllowsIsALivelock() {
    try (TestHost t = TestHost.withSession()) {
      created(decisionAndRequest(t, "pd-1", "req-1"));
      created(decisionAndRequest(t, "pd-2", "req-2"));
      assertEquals("request_livelock", decisionAndRequest(t, "pd-3", "req-3").errorId());
    }
  }

  @Test
  void aRequestForAnotherActionThanItsDecisionIsRefused() {
    try (TestHost t = TestHost.withSession()) {
      created(
          t.scopedPost(
              "/policy-decisions",
              Payloads.AGENT,
              Payloads.decision("pd-1", "fetch_external_source", "review_required")));
      Answer a =
          t.scopedPost(
              "/requests", Payloads.AGENT, Payloads.request("req-pd-1", "pd-1", "summarize"));
      assertEquals("approval_scope_mismatch", a.errorId());
    }
  }

  // --- Review and ApprovalScope ---

  private static ObjectNode approval(TestHost t, Answer request, String reviewId) {
    ObjectNode review = Payloads.review(reviewId, "req-1", "approve");
    review.set(
        "approval_scope",
        Payloads.approvalScope(
            "req-1",
            reviewId,
            "pd-1",
            Long.parseLong(request.header("Jarvis-WorkSession-Revision").orElseThrow()),
            request.header("Jarvis-Last-Event-Hash").orElseThrow()));
    return review;
  }

  @Test
  void anApprovingReviewBoundToTheRequestResolvesIt() {
    try (TestHost t = TestHost.withSession()) {
      Answer request = decisionAndRequest(t, "pd-1", "req-1");
      created(request);
      created(t.scopedPost("/reviews", Payloads.HUMAN, approval(t, request, "review-1")));
      JsonNode resolved = stored(t, RecordKind.REQUEST, "req-1");
      assertEquals("approved", resolved.path("status").asText());
      assertEquals("review-1", resolved.path("resolved_by_review_id").asText());
      assertEquals("2026-06-12T18:20:00Z", resolved.path("resolved_at").asText());
      assertEquals("active", status(t));
    }
  }

  @Test
  void anApprovalScopeForAnotherRequestRevisionIsAMismatch() {
    try (TestHost t = TestHost.withSession()) {
      Answer request = decisionAndRequest(t, "pd-1", "req-1");
      ObjectNode review = approval(t, request, "review-1");
      ((ObjectNode) review.path("approval_scope")).put("request_revision", 1);
      assertEquals(
          "approval_scope_mismatch", t.scopedPost("/reviews", Payloads.HUMAN, review).errorId());
    }
  }

  @Test
  void anApprovalScopeForAnotherActorIsAMismatch() {
    try (TestHost t = TestHost.withSession()) {
      Answer request = decisionAndRequest(t, "pd-1", "req-1");
      ObjectNode review = approval(t, request, "review-1");
      ((ObjectNode) review.path("approval_scope")).put("applies_to_actor_id", Payloads.HUMAN);
      assertEquals(
          "approval_scope_mismatch", t.scopedPost("/reviews", Payloads.HUMAN, review).errorId());
    }
  }

  @Test
  void anApprovalScopeNamingAnotherReviewIsInvalid() {
    try (TestHost t = TestHost.withSession()) {
      Answer request = decisionAndRequest(t, "pd-1", "req-1");
      ObjectNode review = approval(t, request, "review-1");
      ((ObjectNode) review.path("approval_scope")).put("review_id", "review-other");
      assertEquals(
          "invalid_approval_scope", t.scopedPost("/reviews", Payloads.HUMAN, review).errorId());
    }
  }

  @Test
  void anApprovalScopeThatHasExpiredIsRefused() {
    try (TestHost t = TestHost.withSession()) {
      Answer request = decisionAndRequest(t, "pd-1", "req-1");
      ObjectNode review = approval(t, request, "review-1");
      // Expiring exactly now is expired: an approval must still have time to be used.
      ((ObjectNode) review.path("approval_scope")).put("expires_at", "2026-06-12T18:20:00Z");
      assertEquals(
          "approval_scope_expired", t.scopedPost("/reviews", Payloads.HUMAN, review).errorId());
    }
  }

  @Test
  void aResolvedRequestCannotBeReviewedAgain() {
    try (TestHost t = TestHost.withSession()) {
      Answer request = decisionAndRequest(t, "pd-1", "req-1");
      created(t.scopedPost("/reviews", Payloads.HUMAN, approval(t, request, "review-1")));
      Answer again =
          t.scopedPost("/reviews", Payloads.HUMAN, Payloads.review("review-2", "req-1", "answer"));
      assertEquals("invalid_request_transition", again.errorId());
    }
  }

  // --- Agent actions need a PolicyDecision ---

  private static ObjectNode agentEvent(String id, String decisionId) {
    return Steps.agentEvent(id, decisionId, "fetch_external_source");
  }

  @Test
  void anAgentActionWithoutADecisionIsRefused() {
    try (TestHost t = TestHost.withSession()) {
      ObjectNode e = Payloads.event("event-agent-1", "agent.acted", Payloads.AGENT);
      ((ObjectNode) e.path("payload")).put("action", "summarize");
      assertEquals("missing_policy_decision", append(t, Payloads.AGENT, e).errorId());
    }
  }

  @Test
  void anAgentActionUnderADecisionForAnotherActionIsRefused() {
    try (TestHost t = TestHost.withSession()) {
      created(
          t.scopedPost(
              "/policy-decisions",
              Payloads.AGENT,
              Payloads.decision("pd-1", "summarize", "allow")));
      Answer a =
          append(t, Payloads.AGENT, Steps.agentEvent("event-agent-1", "pd-1", "delete_repository"));
      assertEquals("missing_policy_decision", a.errorId());
    }
  }

  @Test
  void anAgentNoteIsAnActionUnlessTheHostDeclaresNotesNonActions() {
    try (TestHost t = TestHost.withSession()) {
      assertEquals(
          "missing_policy_decision",
          append(t, Payloads.AGENT, Payloads.event("event-note-1", "note.recorded", Payloads.AGENT))
              .errorId());
    }
    try (TestHost t =
        TestHost.started(
            b ->
                b.agentActions(
                    AgentActions.DEFAULT.withNonActionEventTypes(List.of("note.recorded"))))) {
      assertEquals(201, t.createSession(Payloads.WS).status());
      created(
          append(
              t, Payloads.AGENT, Payloads.event("event-note-1", "note.recorded", Payloads.AGENT)));
    }
  }

  @Test
  void anAgentActionUnderADenyingDecisionIsRefused() {
    try (TestHost t = TestHost.withSession()) {
      created(
          t.scopedPost(
              "/policy-decisions",
              Payloads.AGENT,
              Payloads.decision("pd-1", "delete_repository", "deny")));
      assertEquals(
          "policy_denied",
          append(t, Payloads.AGENT, Steps.agentEvent("event-agent-1", "pd-1", "delete_repository"))
              .errorId());
    }
  }

  @Test
  void anAgentActionAwaitingReviewIsRefusedUntilApproved() {
    try (TestHost t = TestHost.withSession()) {
      Answer request = decisionAndRequest(t, "pd-1", "req-1");
      assertEquals(
          "review_required",
          append(t, Payloads.AGENT, agentEvent("event-agent-1", "pd-1")).errorId());
      created(t.scopedPost("/reviews", Payloads.HUMAN, approval(t, request, "review-1")));
      created(append(t, Payloads.AGENT, agentEvent("event-agent-1", "pd-1")));
    }
  }

  @Test
  void anApprovalIsUsedUpAfterItsMaxUses() {
    try (TestHost t = TestHost.withSession()) {
      Answer request = decisionAndRequest(t, "pd-1", "req-1");
      created(t.scopedPost("/reviews", Payloads.HUMAN, approval(t, request, "review-1")));
      created(append(t, Payloads.AGENT, agentEvent("event-agent-1", "pd-1")));
      assertEquals(
          "approval_scope_expired",
          append(t, Payloads.AGENT, agentEvent("event-agent-2", "pd-1")).errorId());
    }
  }

  @Test
  void anApprovalIsNoLongerUsableAfterItExpires() {
    try (TestHost t = TestHost.withSession()) {
      Answer request = decisionAndRequest(t, "pd-1", "req-1");
      created(t.scopedPost("/reviews", Payloads.HUMAN, approval(t, request, "review-1")));
      t.clock.advance(Duration.ofMinutes(16));
      assertEquals(
          "approval_scope_expired",
          append(t, Payloads.AGENT, agentEvent("event-agent-1", "pd-1")).errorId());
    }
  }

  @Test
  void aRequestPastItsExpiryCannotBeReviewed() {
    try (TestHost t = TestHost.withSession()) {
      created(decisionAndRequest(t, "pd-1", "req-1"));
      t.clock.advance(Duration.ofMinutes(16));
      Answer a =
          t.scopedPost("/reviews", Payloads.HUMAN, Payloads.review("review-1", "req-1", "answer"));
      assertEquals("invalid_request_transition", a.errorId());
    }
  }

  @Test
  void anAgentActionUnderAnAllowingDecisionIsAccepted() {
    try (TestHost t = TestHost.withSession()) {
      created(
          t.scopedPost(
              "/policy-decisions",
              Payloads.AGENT,
              Payloads.decision("pd-1", "summarize", "allow")));
      created(append(t, Payloads.AGENT, Steps.agentEvent("event-agent-1", "pd-1", "summarize")));
    }
  }

  // --- Takeover ---

  @Test
  void aTakeoverStopsAgentWritesUntilResumed() {
    try (TestHost t = TestHost.withSession()) {
      created(
          t.scopedPost("/takeovers", Payloads.HUMAN, Payloads.takeover("takeover-1", "locked", 1)));
      assertEquals("takeover", status(t));
      Answer agent =
          t.scopedPost(
              "/policy-decisions", Payloads.AGENT, Payloads.decision("pd-1", "summarize", "allow"));
      assertEquals("stale_takeover_epoch", agent.errorId());
      ObjectNode resumed = Payloads.takeover("takeover-1", "resumed", 1);
      resumed.put("resumed_by_actor_id", Payloads.HUMAN);
      resumed.put("resolved_at", "2026-06-12T18:19:00Z");
      resumed.putArray("reconciliation_refs").add("reconciliation:branch-1");
      created(t.scopedPost("/takeovers", Payloads.HUMAN, resumed));
      assertEquals("active", status(t));
      created(
          t.scopedPost(
              "/policy-decisions",
              Payloads.AGENT,
              Payloads.decision("pd-1", "summarize", "allow")));
    }
  }

  @Test
  void aNewTakeoverAtAnEpochAlreadyUsedIsStale() {
    try (TestHost t = TestHost.withSession()) {
      created(
          t.scopedPost("/takeovers", Payloads.HUMAN, Payloads.takeover("takeover-1", "locked", 1)));
      Answer a =
          t.scopedPost("/takeovers", Payloads.HUMAN, Payloads.takeover("takeover-2", "locked", 1));
      assertEquals("stale_takeover_epoch", a.errorId());
    }
  }

  @Test
  void aTakeoverUpdateAtAnotherEpochIsStale() {
    try (TestHost t = TestHost.withSession()) {
      created(
          t.scopedPost("/takeovers", Payloads.HUMAN, Payloads.takeover("takeover-1", "locked", 1)));
      Answer a =
          t.scopedPost(
              "/takeovers", Payloads.HUMAN, Payloads.takeover("takeover-1", "human_active", 2));
      assertEquals("stale_takeover_epoch", a.errorId());
    }
  }

  @Test
  void aTakeoverCannotMoveBackwards() {
    try (TestHost t = TestHost.withSession()) {
      created(
          t.scopedPost(
              "/takeovers", Payloads.HUMAN, Payloads.takeover("takeover-1", "human_active", 1)));
      Answer a =
          t.scopedPost("/takeovers", Payloads.HUMAN, Payloads.takeover("takeover-1", "locked", 1));
      assertEquals("invalid_transition", a.errorId());
    }
  }

  // --- Contribution ---

  @Test
  void aContributorRefThatIsNotARegisteredPairIsRefused() {
    try (TestHost t = TestHost.withSession()) {
      String genesisEvent =
          t.host.host().config().stores().sessions().events(Payloads.WS).get(0).path("id").asText();
      ObjectNode c = Payloads.contribution("contribution-1", genesisEvent);
      ((ObjectNode) c.path("contributor_refs").get(0)).put("worker_id", Payloads.AGENT_WORKER);
      assertEquals(
          "invalid_contributor_refs", t.scopedPost("/contributions", Payloads.HUMAN, c).errorId());
    }
  }

  @Test
  void aContributionCitingAnUnknownEventIsRefused() {
    try (TestHost t = TestHost.withSession()) {
      Answer a =
          t.scopedPost(
              "/contributions",
              Payloads.HUMAN,
              Payloads.contribution("contribution-1", "event-nowhere"));
      assertEquals("missing_jarvis_event", a.errorId());
    }
  }

  // --- Learning governance ---

  @Test
  void anAgentCannotAcceptItsOwnMemory() {
    try (TestHost t = TestHost.withSession()) {
      ObjectNode m = Payloads.memoryProposal("memory-1", Payloads.AGENT, "accepted");
      m.putArray("review_refs").add("review-1");
      assertEquals(
          "model_self_confirmed_memory",
          t.scopedPost("/memory-proposals", Payloads.AGENT, m).errorId());
    }
  }

  @Test
  void aToolCannotAcceptItsOwnMemory() {
    try (TestHost t = TestHost.withSession()) {
      // The agent Worker's tool: a member of the WorkSession through its Worker.
      t.registerActor(Payloads.actor("actor-tool-001", Payloads.AGENT_WORKER, "tool", true));
      ObjectNode m = Payloads.memoryProposal("memory-1", "actor-tool-001", "accepted");
      m.putArray("review_refs").add("review-1");
      assertEquals(
          "tool_self_confirmed_memory",
          t.scopedPost("/memory-proposals", "actor-tool-001", m).errorId());
    }
  }

  @Test
  void acceptedMemoryWithoutARecordedReviewIsASilentMutation() {
    try (TestHost t = TestHost.withSession()) {
      ObjectNode m = Payloads.memoryProposal("memory-1", Payloads.HUMAN, "accepted");
      m.putArray("review_refs").add("review-nowhere");
      assertEquals(
          "silent_memory_mutation", t.scopedPost("/memory-proposals", Payloads.HUMAN, m).errorId());
    }
  }

  @Test
  void aProposedMemoryIsRecorded() {
    try (TestHost t = TestHost.withSession()) {
      created(
          t.scopedPost(
              "/memory-proposals",
              Payloads.AGENT,
              Payloads.memoryProposal("memory-1", Payloads.AGENT, "pending_review")));
    }
  }

  @Test
  void anAgentCannotActivateASkill() {
    try (TestHost t = TestHost.withSession()) {
      ObjectNode s = Payloads.skillProposal("skill-1", Payloads.AGENT, "accepted");
      s.putArray("review_refs").add("review-1");
      assertEquals(
          "silent_skill_activation", t.scopedPost("/skill-proposals", Payloads.AGENT, s).errorId());
    }
  }

  @Test
  void anAcceptedSkillNeedingToolsThePolicyDoesNotGrantIsRefused() {
    try (TestHost t = TestHost.withSession()) {
      Answer request = decisionAndRequest(t, "pd-1", "req-1");
      created(t.scopedPost("/reviews", Payloads.HUMAN, approval(t, request, "review-1")));
      ObjectNode s = Payloads.skillProposal("skill-1", Payloads.HUMAN, "accepted");
      s.putArray("review_refs").add("review-1");
      s.putArray("required_tools").add("tool:search").add("tool:shell");
      assertEquals(
          "skill_expands_tool_access_without_policy_review",
          t.scopedPost("/skill-proposals", Payloads.HUMAN, s).errorId());
      s.putArray("required_tools").add("tool:search");
      created(t.scopedPost("/skill-proposals", Payloads.HUMAN, s));
    }
  }

  @Test
  void aLearningRecordIsListedOnItsWorkSession() {
    try (TestHost t = TestHost.withSession()) {
      String genesisEvent =
          t.host.host().config().stores().sessions().events(Payloads.WS).get(0).path("id").asText();
      created(
          t.scopedPost(
              "/learning-records",
              Payloads.HUMAN,
              Payloads.learningRecord("lr-1", genesisEvent, Payloads.HUMAN)));
      JsonNode ws = t.get("/work-sessions/" + Payloads.WS, Payloads.HUMAN).json();
      assertEquals(List.of("lr-1"), List.of(ws.path("learning_record_refs").get(0).asText()));
    }
  }
}
