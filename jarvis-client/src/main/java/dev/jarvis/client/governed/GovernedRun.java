package dev.jarvis.client.governed;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisCall;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisRefusalException;
import dev.jarvis.client.JarvisStaleSessionException;
import dev.jarvis.client.JarvisUnsupportedCapabilityException;
import dev.jarvis.client.RequestResolution;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.policy.PlannedAction;
import dev.jarvis.core.policy.PolicyEvaluation;
import dev.jarvis.core.policy.PolicyEvaluator;
import dev.jarvis.core.policy.PolicyRefusal;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.ApprovalScope;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.JarvisEventPayload;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.Request;
import dev.jarvis.model.WorkSession;
import java.time.OffsetDateTime;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * One run of a {@link GovernedAction}: its steps, in order, each skipped where a re-run finds it.
 */
final class GovernedRun {

  /** Attempts at recording the decision: each refusal names a strictly stricter result. */
  private static final int DECISION_ATTEMPTS = PolicyDecisionResult.values().length;

  private final JarvisClient client;
  private final String ws;
  private final PlannedAction planned;
  private final String key;
  private final boolean resumable;
  private final GovernedOptions options;
  private final ActionKeys ids;

  GovernedRun(
      JarvisClient client,
      String ws,
      PlannedAction planned,
      String key,
      boolean resumable,
      GovernedOptions options) {
    this.client = client;
    this.ws = ws;
    this.planned = planned;
    this.key = key;
    this.resumable = resumable;
    this.options = options;
    this.ids = ActionKeys.of(ws, client.actorId(), key, planned);
  }

  <T> GovernedOutcome<T> run(GovernedWork<T> work, Function<? super T, ActionReport> report) {
    WorkSession session;
    Resume resume;
    PolicyDecision decision;
    String denial;
    try {
      session = client.getWorkSession(ws);
      resume = resumable ? Resume.read(client, ws, ids) : Resume.NONE;
      if (resume.event().isPresent()) {
        JarvisEvent earlier = resume.event().get();
        return new GovernedOutcome.AlreadyRecorded<>(
            earlier, options.performedEventType().equals(earlier.getType()));
      }
      if (resume.decided().isPresent()) {
        decision = draft(session, resume.decided().get(), "Recorded by an earlier run.");
        denial =
            namingRule(
                "The Policy denied it in an earlier run under this action key.",
                options.policy().map(this::evaluate));
      } else {
        Decided decided = decide(session);
        decision = decided.decision();
        denial = decided.forAgent();
      }
    } catch (RuntimeException e) {
      return new GovernedOutcome.Failed<>(e, Optional.empty(), GovernedOutcome.Stage.DECIDE);
    }
    Permit permit;
    switch (decision.getResult()) {
      case DENY:
        return new GovernedOutcome.Denied<>(decision, denial);
      case REVIEW_REQUIRED:
        if (!resume.requestCreated()) {
          try {
            Request request =
                client
                    .records()
                    .request(
                        decision,
                        session.getAgentWorkerId(),
                        session.getHumanWorkerId(),
                        options.requestExpiresIn());
            mutate(JarvisCall.createRequest(ws, request).withIdempotencyKey(ids.requestKey()));
          } catch (RuntimeException e) {
            return new GovernedOutcome.Failed<>(e, Optional.empty(), GovernedOutcome.Stage.REQUEST);
          }
        }
        RequestResolution resolution;
        try {
          resolution =
              client.awaitResolution(
                  ws, ids.requestId(), options.reviewWait(), options.awaitPolicy());
        } catch (RuntimeException e) {
          return new GovernedOutcome.Failed<>(e, Optional.empty(), GovernedOutcome.Stage.AWAIT);
        }
        Optional<ApprovalScope> approval = resolution.approval();
        if (approval.isEmpty()) {
          return new GovernedOutcome.NotApproved<>(decision, resolution, whyNot(resolution));
        }
        Optional<String> unusable = unusable(approval.get(), decision);
        if (unusable.isPresent()) {
          return new GovernedOutcome.NotApproved<>(decision, resolution, unusable.get());
        }
        PolicyActionRequest approved =
            approval.get().getApprovedAction() != null
                ? approval.get().getApprovedAction()
                : decision.getRequestedAction();
        permit = new Permit(key, decision, approved, approval);
        break;
      default:
        permit = new Permit(key, decision, decision.getRequestedAction(), Optional.empty());
    }
    return perform(work, report, permit);
  }

  private <T> GovernedOutcome<T> perform(
      GovernedWork<T> work, Function<? super T, ActionReport> report, Permit permit) {
    PolicyDecision decision = permit.decision();
    String name = decision.getRequestedAction().getAction();
    T result;
    try {
      result = work.perform(permit);
    } catch (Exception thrown) {
      if (thrown instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      // The failure is recorded under the decision, so the log says the action was attempted;
      // only the exception's type: its message may hold anything, credentials included.
      ActionReport failure =
          ActionReport.of(name + " failed: " + thrown.getClass().getSimpleName() + ".");
      try {
        JarvisEvent event = append(decision, options.failedEventType(), failure);
        return new GovernedOutcome.Failed<>(thrown, Optional.of(event), GovernedOutcome.Stage.WORK);
      } catch (RuntimeException notRecorded) {
        thrown.addSuppressed(notRecorded);
        return new GovernedOutcome.Failed<>(thrown, Optional.empty(), GovernedOutcome.Stage.WORK);
      }
    }
    ActionReport said;
    try {
      said = report.apply(result);
    } catch (RuntimeException e) {
      // The work ran: record it, with the plain summary.
      said = ActionReport.of(name + " performed.");
    }
    try {
      JarvisEvent event = append(decision, options.performedEventType(), said);
      return new GovernedOutcome.Done<>(result, event);
    } catch (RuntimeException e) {
      return new GovernedOutcome.Failed<>(e, Optional.empty(), GovernedOutcome.Stage.RECORD);
    }
  }

  private JarvisEvent append(PolicyDecision decision, String type, ActionReport report) {
    JarvisEvent event = ProtocolRecords.actionEvent(decision, type).id(ids.eventId());
    JarvisEventPayload payload = event.getPayload();
    payload.setSummary(report.summary());
    LinkedHashSet<String> refs = new LinkedHashSet<>(payload.getEvidenceRefs());
    refs.addAll(report.evidenceRefs());
    payload.setEvidenceRefs(refs);
    return mutate(JarvisCall.appendJarvisEvent(ws, event).withIdempotencyKey(ids.eventKey()));
  }

  /** Attempts at a mutation whose WorkSession others moved on (a human's Review, mostly). */
  private static final int STALE_ATTEMPTS = 3;

  /**
   * Runs a mutation, again after a stale-session refusal: the WorkSession moved on (the human
   * answered, another tool call of the agent appended), the client re-read it, and nothing was
   * recorded, so the same step under the same key is sent on the new cursor.
   */
  private <T> T mutate(JarvisCall<T> call) {
    for (int attempt = 1; ; attempt++) {
      try {
        return client.execute(call).body();
      } catch (JarvisStaleSessionException stale) {
        if (attempt >= STALE_ATTEMPTS) {
          throw stale;
        }
      }
    }
  }

  /** The decision as recorded, and why for the agent. */
  private record Decided(PolicyDecision decision, String forAgent) {}

  /**
   * Records the most permissive decision the host accepts: the local evaluation's where the Policy
   * is known, else {@code allow}; a refusal naming a stricter result is followed, never a looser.
   */
  private Decided decide(WorkSession session) {
    Optional<PolicyEvaluation> local = options.policy().map(this::evaluate);
    PolicyDecisionResult result =
        local.map(PolicyEvaluation::result).orElse(PolicyDecisionResult.ALLOW);
    String reason =
        local
            .map(e -> e.reason() + " (" + e.rule() + ")")
            .orElse("The agent asks to act; the host holds the decision to the Policy.");
    String forAgent = namingRule(local.map(PolicyEvaluation::forAgent).orElse(reason), local);
    for (int attempt = 1; ; attempt++) {
      PolicyDecision draft = draft(session, result, reason);
      try {
        PolicyDecision recorded =
            mutate(
                JarvisCall.recordPolicyDecision(ws, draft).withIdempotencyKey(ids.decisionKey()));
        return new Decided(recorded, forAgent);
      } catch (JarvisRefusalException refused) {
        Optional<PolicyDecisionResult> stricter = stricter(refused, result);
        if (stricter.isEmpty() || attempt >= DECISION_ATTEMPTS) {
          throw refused;
        }
        result = stricter.get();
        reason = refused.reason();
        forAgent = forAgent(refused, result);
      }
    }
  }

  /**
   * {@code text} naming the rule of the agent's own evaluation, where it made one: the model learns
   * which rule decided, as a host's refusal tells it ({@link #forAgent(JarvisRefusalException,
   * PolicyDecisionResult)}).
   */
  private static String namingRule(String text, Optional<PolicyEvaluation> local) {
    return local.map(e -> text + " (Policy rule " + e.rule() + ".)").orElse(text);
  }

  /** What the agent is told of a host's refusal: the action, the result and the rule it names. */
  private String forAgent(JarvisRefusalException refused, PolicyDecisionResult result) {
    String name = planned.action().getAction();
    String rule =
        PolicyRefusal.parse(refused.reason()).map(r -> " (rule " + r.rule() + ")").orElse("");
    return result == PolicyDecisionResult.DENY
        ? name + " is not permitted by the Policy" + rule + "."
        : name + " needs a human's approval first" + rule + ".";
  }

  private PolicyEvaluation evaluate(dev.jarvis.model.Policy policy) {
    PolicyEvaluator evaluator = PolicyEvaluator.of(policy);
    if (options.agentWorker().isPresent()) {
      evaluator = evaluator.forAgent(options.agentWorker().get());
    }
    return evaluator.evaluate(planned);
  }

  /**
   * The stricter result a refusal of a too-permissive decision names; empty for any other refusal.
   * A refusal that names no result, or one not stricter than {@code tried}, is read as strictly as
   * its error id allows: {@code review_required} for {@code review_required}, else {@code deny}.
   */
  private static Optional<PolicyDecisionResult> stricter(
      JarvisRefusalException refused, PolicyDecisionResult tried) {
    boolean atResult = ("/" + PolicyDecision.JSON_PROPERTY_RESULT).equals(refused.field());
    if (!atResult
        || !refused.isAnyOf(ProtocolErrorId.REVIEW_REQUIRED, ProtocolErrorId.POLICY_DENIED)
        || tried == PolicyDecisionResult.DENY) {
      return Optional.empty();
    }
    Optional<PolicyDecisionResult> named =
        PolicyRefusal.parse(refused.reason())
            .map(PolicyRefusal::ceiling)
            .filter(ceiling -> rank(ceiling) < rank(tried));
    if (named.isPresent()) {
      return named;
    }
    return Optional.of(
        refused.is(ProtocolErrorId.REVIEW_REQUIRED)
                && rank(tried) > rank(PolicyDecisionResult.REVIEW_REQUIRED)
            ? PolicyDecisionResult.REVIEW_REQUIRED
            : PolicyDecisionResult.DENY);
  }

  private static int rank(PolicyDecisionResult result) {
    return PolicyEvaluation.permissiveness(result);
  }

  private PolicyDecision draft(WorkSession session, PolicyDecisionResult result, String reason) {
    PolicyDecision decision =
        client
            .records()
            .policyDecision(
                ws, session.getPolicyId(), planned.action(), planned.riskClass(), result, reason)
            .id(ids.decisionId(result));
    planned.dataSensitivity().ifPresent(decision::setDataSensitivity);
    if (!planned.grantRefs().isEmpty()) {
      decision.setSelectedGrantRefs(new LinkedHashSet<>(planned.grantRefs()));
    }
    if (result == PolicyDecisionResult.REVIEW_REQUIRED || result == PolicyDecisionResult.DENY) {
      decision.setRequestId(ids.requestId());
    }
    return decision;
  }

  /** Why an approval the host recorded cannot be run under now; empty if it can. */
  private Optional<String> unusable(ApprovalScope scope, PolicyDecision decision) {
    if (!decision.getId().equals(scope.getPolicyDecisionId())) {
      return Optional.of("The approval is for another decision.");
    }
    if (!client.actorId().equals(scope.getAppliesToActorId())
        || !ws.equals(scope.getAppliesToWorkSessionId())) {
      return Optional.of("The approval is for another Actor or WorkSession.");
    }
    if (scope.getMaxUses() != null && scope.getMaxUses() < 1) {
      return Optional.of("The approval has no use left.");
    }
    OffsetDateTime now = client.records().now();
    if (scope.getExpiresAt() != null && !now.isBefore(scope.getExpiresAt())) {
      return Optional.of("The approval expired at " + scope.getExpiresAt() + ".");
    }
    return Optional.empty();
  }

  /** Why an await that carries no approval lets nothing run, for the agent. */
  static String whyNot(RequestResolution resolution) {
    return switch (resolution.outcome()) {
      case DENIED -> "The human denied it.";
      case ANSWERED -> "The human answered without approving it.";
      case NEEDS_REVISION -> "The human asks for changes before it may run.";
      case TAKEN_OVER -> "A human took this over.";
      case EXPIRED -> "The Request expired with no answer; the action stays blocked.";
      case SUPERSEDED -> "A newer Request replaced this one.";
      case CANCELLED -> "The Request was cancelled.";
      case TIMED_OUT ->
          "No answer came within the wait; the Request may still be open. Do not act without"
              + " an approval.";
      case CANCELLED_BY_CALLER -> "The wait for the human was cancelled.";
      case HOST_LOST -> "The host could not be reached while waiting; nothing is approved.";
      case APPROVED, NARROWED -> "The approval carried no ApprovalScope.";
    };
  }

  /** What the host already records of this action, found in the WorkSession's log. */
  private record Resume(
      Optional<PolicyDecisionResult> decided, boolean requestCreated, Optional<JarvisEvent> event) {

    static final Resume NONE = new Resume(Optional.empty(), false, Optional.empty());

    /** The log, read from genesis; a host without the {@code event-log} capability: nothing. */
    static Resume read(JarvisClient client, String ws, ActionKeys ids) {
      Optional<PolicyDecisionResult> decided = Optional.empty();
      boolean requested = false;
      Optional<JarvisEvent> event = Optional.empty();
      String decisionType = JarvisEventPayload.ObjectTypeEnum.POLICY_DECISION.getValue();
      String requestType = JarvisEventPayload.ObjectTypeEnum.REQUEST.getValue();
      try (Stream<JsonNode> events = client.events(ws)) {
        for (JsonNode node : (Iterable<JsonNode>) events::iterator) {
          String id = node.path(JarvisEvent.JSON_PROPERTY_ID).asText();
          // Only what this Actor recorded resumes its action: a decision or Request another
          // member recorded under one of its ids is not ours, and never lets the work run.
          if (!client.actorId().equals(node.path(JarvisEvent.JSON_PROPERTY_ACTOR_ID).asText())) {
            continue;
          }
          JsonNode payload = node.path(JarvisEvent.JSON_PROPERTY_PAYLOAD);
          String objectType = payload.path(JarvisEventPayload.JSON_PROPERTY_OBJECT_TYPE).asText();
          String objectId = payload.path(JarvisEventPayload.JSON_PROPERTY_OBJECT_ID).asText();
          if (id.equals(ids.eventId())) {
            event = Optional.of(bind(node));
          } else if (objectType.equals(decisionType) && ids.resultOf(objectId).isPresent()) {
            decided = ids.resultOf(objectId);
          } else if (objectType.equals(requestType) && objectId.equals(ids.requestId())) {
            requested = true;
          }
        }
      } catch (JarvisUnsupportedCapabilityException e) {
        return NONE;
      }
      return new Resume(decided, requested, event);
    }

    private static JarvisEvent bind(JsonNode node) {
      try {
        return JarvisJson.mapper().treeToValue(node, JarvisEvent.class);
      } catch (JsonProcessingException e) {
        // The client verified the event against the spec's schema when it read it.
        throw new IllegalStateException("a verified event did not bind", e);
      }
    }
  }
}
