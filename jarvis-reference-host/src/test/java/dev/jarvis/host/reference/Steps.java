package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.headers.RequestTimestamp;

/**
 * The steps of the protocol's stories over HTTP on a {@link TestHost}, each one request: what a
 * test does before it provokes a refusal, and what following a remediation does.
 */
final class Steps {

  static final String EXPORT = "/work-sessions/" + Payloads.WS + "/export";

  private Steps() {}

  /** Appends a draft event as the Actor, stamped by the host clock and chained at the cursor. */
  static Answer append(TestHost t, String actorId, ObjectNode draft) {
    draft.put("timestamp", RequestTimestamp.format(t.clock.instant()));
    ChainCursor cursor = t.cursor();
    return t.send(
        "POST",
        "/work-sessions/" + Payloads.WS + "/events",
        t.scoped(actorId, cursor),
        EventChain.next(cursor, draft).toString());
  }

  static Answer complete(TestHost t) {
    return append(
        t, Payloads.HUMAN, Payloads.event("event-done", "work_session.completed", Payloads.HUMAN));
  }

  /** The id of the WorkSession's genesis event. */
  static String genesisEvent(TestHost t) {
    return t.host
        .host()
        .config()
        .stores()
        .sessions()
        .events(Payloads.WS)
        .get(0)
        .path("id")
        .asText();
  }

  static Answer contribution(TestHost t, String id) {
    return t.scopedPost(
        "/contributions", Payloads.HUMAN, Payloads.contribution(id, genesisEvent(t)));
  }

  /** A review_required decision for fetch_external_source and its Request; the Request's answer. */
  static Answer decisionAndRequest(TestHost t, String decisionId, String requestId) {
    ObjectNode d = Payloads.decision(decisionId, "fetch_external_source", "review_required");
    d.put("request_id", requestId);
    created(t.scopedPost("/policy-decisions", Payloads.AGENT, d));
    return t.scopedPost(
        "/requests",
        Payloads.AGENT,
        Payloads.request(requestId, decisionId, "fetch_external_source"));
  }

  /** An approving Review of the Request that {@code request} answered, bound to it. */
  static ObjectNode approval(Answer request, String requestId, String decisionId, String reviewId) {
    ObjectNode review = Payloads.review(reviewId, requestId, "approve");
    review.set(
        "approval_scope",
        Payloads.approvalScope(
            requestId,
            reviewId,
            decisionId,
            Long.parseLong(request.header("Jarvis-WorkSession-Revision").orElseThrow()),
            request.header("Jarvis-Last-Event-Hash").orElseThrow()));
    return review;
  }

  /** Decision, Request and approving Review: the agent may then fetch the external source once. */
  static void approved(TestHost t, String decisionId, String requestId, String reviewId) {
    Answer request = decisionAndRequest(t, decisionId, requestId);
    created(request);
    created(
        t.scopedPost(
            "/reviews", Payloads.HUMAN, approval(request, requestId, decisionId, reviewId)));
  }

  /** An agent event doing {@code action} under PolicyDecision {@code decisionId}. */
  static ObjectNode agentEvent(String id, String decisionId, String action) {
    ObjectNode e = Payloads.event(id, "agent.acted", Payloads.AGENT);
    ObjectNode payload = (ObjectNode) e.path("payload");
    payload.put("action", action);
    payload.putArray("evidence_refs").add("policy_decision:" + decisionId);
    return e;
  }

  /** A WorkSession with a Contribution and a LearningRecord, completed and exported (sealed). */
  static void sealed(TestHost t) {
    created(contribution(t, "contribution-1"));
    created(
        t.scopedPost(
            "/learning-records",
            Payloads.HUMAN,
            Payloads.learningRecord("lr-1", genesisEvent(t), Payloads.HUMAN)));
    created(complete(t));
    Answer export = t.get(EXPORT, Payloads.HUMAN);
    assertEquals(200, export.status(), export.text());
  }

  static void created(Answer a) {
    assertEquals(201, a.status(), a.text());
  }
}
