package dev.jarvis.conformance;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.BlockingScope;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.Request;
import dev.jarvis.model.ReviewDecision;
import dev.jarvis.model.Takeover;
import dev.jarvis.model.TakeoverState;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The control-plane records the purpose checks send (Requests, Reviews, ApprovalScopes, Takeovers),
 * built by {@link ProtocolRecords} with the suite's ids and times and turned into trees a check may
 * break on purpose.
 */
final class PurposeRecords {

  private PurposeRecords() {}

  /**
   * A {@code review_required} decision of the agent for {@code action} (an action the Policy does
   * not deny, at its risk class), naming its Request.
   */
  static ObjectNode reviewRequired(
      LiveHost live,
      String session,
      String decisionId,
      PolicyActions.Action action,
      String requestId) {
    ObjectNode decision = tree(decisionRecord(live, session, decisionId, action, requestId));
    decision.put("created_at", live.now());
    return decision;
  }

  /**
   * A pending permission Request of the agent to {@code targetWorker}, expiring at {@code expires}.
   */
  static ObjectNode request(
      LiveHost live,
      String session,
      String id,
      String decisionId,
      PolicyActions.Action action,
      String targetWorker,
      Instant expires) {
    ObjectNode request =
        tree(requestRecord(live, session, id, decisionId, action, targetWorker, expires));
    request.put("created_at", live.now());
    request.put("expires_at", RequestTimestamp.format(expires));
    return request;
  }

  static ObjectNode review(
      LiveHost live,
      String session,
      String id,
      String actor,
      String worker,
      String target,
      String decision) {
    ObjectNode review =
        tree(
            live.records(actor)
                .review(session, target, worker, ReviewDecision.fromValue(decision))
                .id(id));
    review.put("created_at", live.now());
    return review;
  }

  /**
   * An ApprovalScope approving {@code action} once for the agent, bound to the Request as recorded.
   */
  static ObjectNode scope(
      LiveHost live,
      String session,
      String requestId,
      String reviewId,
      String decisionId,
      ChainCursor recordedAt,
      PolicyActions.Action action,
      Instant expires) {
    Request request =
        requestRecord(live, session, requestId, decisionId, action, live.humanWorker, expires);
    ObjectNode scope =
        tree(
            live.records(live.human)
                .approvalScope(
                    request, reviewId, recordedAt, Duration.between(live.instant(), expires)));
    scope.put("expires_at", RequestTimestamp.format(expires));
    return scope;
  }

  static ObjectNode takeover(
      LiveHost live, String session, String id, String scopeRef, String state) {
    Takeover takeover =
        live.records(live.human)
            .takeover(session, BlockingScope.BRANCH, scopeRef, "The human steers this branch.")
            .id(id)
            .state(TakeoverState.fromValue(state));
    boolean resumed = takeover.getState() == TakeoverState.RESUMED;
    if (resumed) {
      takeover
          .resumedByActorId(live.human)
          .reconciliationRefs(new LinkedHashSet<>(List.of("note:reconciled")));
    }
    ObjectNode tree = tree(takeover);
    tree.put("created_at", live.now());
    if (resumed) {
      tree.put("resolved_at", live.now());
    }
    return tree;
  }

  private static PolicyDecision decisionRecord(
      LiveHost live,
      String session,
      String decisionId,
      PolicyActions.Action action,
      String requestId) {
    return live.records(live.agent)
        .policyDecision(
            session,
            live.policy,
            action.request(),
            action.risk(),
            PolicyDecisionResult.REVIEW_REQUIRED,
            "The action needs a human's review first.")
        .id(decisionId)
        .requestId(requestId);
  }

  private static Request requestRecord(
      LiveHost live,
      String session,
      String id,
      String decisionId,
      PolicyActions.Action action,
      String targetWorker,
      Instant expires) {
    PolicyDecision decision = decisionRecord(live, session, decisionId, action, id);
    return live.records(live.agent)
        .request(
            decision, live.agentWorker, targetWorker, Duration.between(live.instant(), expires))
        .reasonSummary("The action needs a human's review.");
  }

  private static ObjectNode tree(Object record) {
    return JarvisJson.mapper().valueToTree(record);
  }
}
