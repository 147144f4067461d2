package dev.jarvis.core.records;

import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.canonical.Sha256Hash;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.hash.ActionHash;
import dev.jarvis.core.policy.PolicyEvaluation;
import dev.jarvis.model.AccountabilityScope;
import dev.jarvis.model.Actor;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.ApprovalBoundary;
import dev.jarvis.model.ApprovalScope;
import dev.jarvis.model.AuthorityScope;
import dev.jarvis.model.BlockingScope;
import dev.jarvis.model.Contribution;
import dev.jarvis.model.ContributionRole;
import dev.jarvis.model.ContributionScope;
import dev.jarvis.model.ContributionType;
import dev.jarvis.model.ContributorRef;
import dev.jarvis.model.ContributorType;
import dev.jarvis.model.EventAuthority;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.JarvisEventPayload;
import dev.jarvis.model.LearningRecord;
import dev.jarvis.model.LearningReviewState;
import dev.jarvis.model.LearningSubjectType;
import dev.jarvis.model.MemoryProposal;
import dev.jarvis.model.MemoryProposalStatus;
import dev.jarvis.model.OutcomeReport;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.ProposalTargetType;
import dev.jarvis.model.Request;
import dev.jarvis.model.RequestOption;
import dev.jarvis.model.RequestStatus;
import dev.jarvis.model.RequestType;
import dev.jarvis.model.Review;
import dev.jarvis.model.ReviewDecision;
import dev.jarvis.model.RiskClass;
import dev.jarvis.model.SafeFallback;
import dev.jarvis.model.Takeover;
import dev.jarvis.model.TakeoverScope;
import dev.jarvis.model.TakeoverState;
import dev.jarvis.model.WorkSession;
import dev.jarvis.model.WorkSessionStatus;
import dev.jarvis.model.Worker;
import dev.jarvis.model.WorkerType;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The protocol's request records, seeded with everything the caller does not decide: the protocol
 * version, a fresh id from the id source, times from the clock, the acting Actor where the record
 * names it, the action hash from the action, and at WorkSession genesis the fields the host owns
 * (status {@code active}, revision 0, {@code hash:protocol-genesis}, the event log ref). Each
 * method takes what only the caller can say and returns the generated record, whose fluent setters
 * change anything else ({@code records.workSession(...).objective("...")}).
 *
 * <p>Get one from {@code JarvisClient.records()} (the client's clock, id source and Actor) or build
 * one for tests with an injected clock and ids. Immutable; {@link #as(String)} makes one for
 * another Actor. Times are UTC, truncated to seconds as the spec's examples are.
 *
 * <p>Which fields are whose, at a glance (the whole table is in {@code docs/client.md}):
 *
 * <ul>
 *   <li>the caller: objective, workers, the Policy, the action and its risk, the decision's result
 *       and reason, the Review's decision, contributions and lessons;
 *   <li>these factories: ids, {@code protocol_version}, times, acting-Actor fields, {@code
 *       normalized_action_hash}, the genesis fields, a Request's defaults (type {@code permission},
 *       blocking scope {@code action}, approve/deny options, stay-stopped fallback), an approval's
 *       bounds (this action, this WorkSession, this Actor, once);
 *   <li>the client when it sends: an event's {@code id}, {@code actor_id}, {@code timestamp} (where
 *       unset), {@code sequence}, {@code previous_hash}, {@code event_hash}, {@code
 *       canonicalization}, with a signing key for the Actor {@code actor_signature} and {@code
 *       signing_key_ref} (signed over the hash, so only once it is built), and every protocol
 *       header;
 *   <li>the host: a WorkSession's revision, {@code last_event_hash}, status and {@code updated_at}
 *       after genesis, a Request's status after a Review.
 * </ul>
 */
public final class ProtocolRecords {

  private final Clock clock;
  private final Supplier<String> ids;
  private final String actorId;

  /**
   * @param clock where every time comes from
   * @param ids unique values; each record id is a kind prefix and one of them ({@code ws-…})
   * @param actorId the acting Actor, put where a record names who acts
   */
  public ProtocolRecords(Clock clock, Supplier<String> ids, String actorId) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.ids = Objects.requireNonNull(ids, "ids");
    this.actorId = Objects.requireNonNull(actorId, "actorId");
  }

  /** The same factories acting as another Actor. */
  public ProtocolRecords as(String otherActorId) {
    return new ProtocolRecords(clock, ids, otherActorId);
  }

  /** The acting Actor. */
  public String actorId() {
    return actorId;
  }

  /** A fresh id: {@code prefix-} and the next value of the id source. */
  public String newId(String prefix) {
    return prefix + "-" + ids.get();
  }

  /** Now, from the clock, in UTC to the second. */
  public OffsetDateTime now() {
    return OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC)
        .truncatedTo(ChronoUnit.SECONDS);
  }

  // ---- registration ----

  /** A Worker of {@code type} in {@code role}, with empty authority and accountability scopes. */
  public Worker worker(String id, WorkerType type, String role) {
    return worker(id, type, role, List.of(), List.of());
  }

  /** A Worker of {@code type} in {@code role}, granted {@code grants}, accountable for those. */
  public Worker worker(
      String id,
      WorkerType type,
      String role,
      Collection<String> grants,
      Collection<String> accountableFor) {
    return new Worker()
        .id(id)
        .type(type)
        .role(role)
        .authorityScope(new AuthorityScope().grants(new LinkedHashSet<>(grants)))
        .accountabilityScope(
            new AccountabilityScope().accountableFor(new LinkedHashSet<>(accountableFor)));
  }

  /**
   * An Actor of a Worker, created now, that may append events and contributes in the role of its
   * type ({@code human} → {@code human}).
   */
  public Actor actor(String id, String workerId, ActorType type) {
    return new Actor()
        .id(id)
        .workerId(workerId)
        .type(type)
        .eventAuthority(new EventAuthority().canAppendEvents(true))
        .contributionScope(
            new ContributionScope()
                .contributionRoles(
                    new LinkedHashSet<>(Set.of(ContributionRole.fromValue(type.getValue())))))
        .createdAt(now());
  }

  // ---- the WorkSession ----

  /**
   * The body of {@code createWorkSession}, created by the acting Actor now, with the genesis fields
   * the host owns as the spec requires them: status {@code active}, revision 0, {@code
   * last_event_hash} {@code hash:protocol-genesis}, {@code event_log_ref} {@code event-log:<id>}.
   * The host answers with revision 1.
   */
  public WorkSession workSession(
      String objective, String humanWorkerId, String agentWorkerId, String policyId) {
    return workSession(newId("ws"), objective, humanWorkerId, agentWorkerId, policyId);
  }

  /** The same, with the WorkSession's id chosen by the caller (its event log ref follows it). */
  public WorkSession workSession(
      String id, String objective, String humanWorkerId, String agentWorkerId, String policyId) {
    OffsetDateTime now = now();
    return new WorkSession()
        .id(id)
        .protocolVersion(JarvisSpec.PROTOCOL_VERSION)
        .createdByActorId(actorId)
        .objective(objective)
        .humanWorkerId(humanWorkerId)
        .agentWorkerId(agentWorkerId)
        .policyId(policyId)
        .status(WorkSessionStatus.ACTIVE)
        .revision(0L)
        .lastEventHash(Sha256Hash.GENESIS)
        .eventLogRef("event-log:" + id)
        .createdAt(now)
        .updatedAt(now);
  }

  // ---- deciding ----

  /** An action: what, on which target, within which scope ({@code null} where none). */
  public static PolicyActionRequest action(String action, String targetRef, String scopeRef) {
    return new PolicyActionRequest().action(action).targetRef(targetRef).scopeRef(scopeRef);
  }

  /**
   * A PolicyDecision by the acting Actor, now, with the action's {@code normalized_action_hash}. A
   * {@code deny} or {@code review_required} result is an ordinary record: name the Request it opens
   * with {@code .requestId(...)}.
   */
  public PolicyDecision policyDecision(
      String workSessionId,
      String policyId,
      PolicyActionRequest action,
      RiskClass risk,
      PolicyDecisionResult result,
      String reason) {
    return new PolicyDecision()
        .id(newId("pd"))
        .workSessionId(workSessionId)
        .actorId(actorId)
        .policyId(policyId)
        .requestedAction(action)
        .normalizedActionHash(ActionHash.of(action))
        .riskClass(risk)
        .result(result)
        .reason(reason)
        .createdAt(now());
  }

  /**
   * The PolicyDecision a Policy's evaluation gives: its result and reason are the evaluation's, so
   * the host, judging with the same engine, accepts it. Name the Request a {@code deny} or {@code
   * review_required} result opens with {@code .requestId(...)}.
   */
  public PolicyDecision policyDecision(
      String workSessionId,
      String policyId,
      PolicyActionRequest action,
      RiskClass risk,
      PolicyEvaluation evaluation) {
    return policyDecision(
        workSessionId,
        policyId,
        action,
        risk,
        evaluation.result(),
        evaluation.reason() + " (" + evaluation.rule() + ")");
  }

  /**
   * A pending {@code permission} Request by the acting Actor for the decision's action, blocking
   * that action, expiring after {@code expiresIn}. From the decision: its id, action, risk, result
   * (as {@code reason_code}) and reason (as {@code reason_summary}). Defaults the caller may
   * replace: two options (approve, deny), the outcome asked for, the decision needed, and the
   * fallback {@code keep_blocked_scope_stopped}.
   *
   * <p>Order: the decision is recorded first and the Request created second. Pick the Request's id
   * before either with {@link #newId(String)} and give it to the decision ({@code
   * .requestId(records.newId("req"))}); this method then takes the Request's {@code id} from the
   * decision's {@code request_id} (a fresh id only if the decision names none).
   */
  public Request request(
      PolicyDecision decision,
      String requesterWorkerId,
      String targetHumanWorkerId,
      Duration expiresIn) {
    PolicyActionRequest action = decision.getRequestedAction();
    OffsetDateTime now = now();
    return new Request()
        .id(decision.getRequestId() != null ? decision.getRequestId() : newId("req"))
        .protocolVersion(JarvisSpec.PROTOCOL_VERSION)
        .workSessionId(decision.getWorkSessionId())
        .requesterActorId(actorId)
        .requesterWorkerId(requesterWorkerId)
        .targetHumanWorkerId(targetHumanWorkerId)
        .policyDecisionId(decision.getId())
        .type(RequestType.PERMISSION)
        .blockingScope(BlockingScope.ACTION)
        .reasonCode(decision.getResult().getValue())
        .reasonSummary(decision.getReason())
        .requestedAction(action)
        .requestedOutcome("Perform " + action.getAction() + " as requested.")
        .riskClass(decision.getRiskClass())
        .humanDecisionNeeded("Approve or deny " + action.getAction() + ".")
        .options(
            new ArrayList<>(
                List.of(
                    new RequestOption()
                        .id("option-approve")
                        .label("Approve")
                        .effect("The action may be performed once."),
                    new RequestOption()
                        .id("option-deny")
                        .label("Deny")
                        .effect("The action stays blocked."))))
        .defaultIfNoResponse(
            new SafeFallback()
                .action(SafeFallback.ActionEnum.KEEP_BLOCKED_SCOPE_STOPPED)
                .reason("Nothing blocked happens without a human decision."))
        .status(RequestStatus.PENDING)
        .createdAt(now)
        .expiresAt(now.plus(expiresIn));
  }

  // ---- reviewing ----

  /** A Review of the Request by the acting Actor, now ({@code target_ref} {@code request:<id>}). */
  public Review review(Request request, String reviewerWorkerId, ReviewDecision decision) {
    return review(
        request.getWorkSessionId(), "request:" + request.getId(), reviewerWorkerId, decision);
  }

  /** A Review of what {@code targetRef} names, in the WorkSession, by the acting Actor, now. */
  public Review review(
      String workSessionId, String targetRef, String reviewerWorkerId, ReviewDecision decision) {
    return new Review()
        .id(newId("review"))
        .workSessionId(workSessionId)
        .reviewerActorId(actorId)
        .reviewerWorkerId(reviewerWorkerId)
        .targetRef(targetRef)
        .decision(decision)
        .createdAt(now());
  }

  /**
   * An approving Review whose ApprovalScope is as narrow as the protocol allows: exactly the
   * Request's action (and its hash), in its WorkSession, for the Actor that asked, once, until
   * {@code validFor} from now, within the action's scope ref (or {@code scope:requested-action})
   * and nothing else.
   *
   * @param requestAt the WorkSession's cursor just after the Request was created: the scope binds
   *     the Request as it stood ({@code request_revision}, {@code request_event_hash}); the
   *     client's {@code cursor(workSessionId)} has it
   */
  public Review approval(
      Request request, String reviewerWorkerId, ChainCursor requestAt, Duration validFor) {
    Review review = review(request, reviewerWorkerId, ReviewDecision.APPROVE);
    return review.approvalScope(approvalScope(request, review.getId(), requestAt, validFor));
  }

  /** The allowed scope ref of an approval of an action that names no scope of its own. */
  public static final String REQUESTED_ACTION_SCOPE = "scope:requested-action";

  /**
   * The allowed scope ref of {@link #approvalScope}'s approval of exactly {@code action}: its scope
   * ref, or {@value #REQUESTED_ACTION_SCOPE} where it names none.
   */
  public static String ownScopeRef(PolicyActionRequest action) {
    return action.getScopeRef() != null ? action.getScopeRef() : REQUESTED_ACTION_SCOPE;
  }

  /**
   * The ApprovalScope of {@link #approval}, for the Review {@code reviewId}: exactly the Request's
   * action (and its hash), in its WorkSession, for the Actor that asked, once, until {@code
   * validFor} from now, within the action's scope ref (or {@code scope:requested-action}) and
   * nothing else, bound to the Request as it stood at {@code requestAt}.
   */
  public ApprovalScope approvalScope(
      Request request, String reviewId, ChainCursor requestAt, Duration validFor) {
    PolicyActionRequest action = request.getRequestedAction();
    String scopeRef = ownScopeRef(action);
    return new ApprovalScope()
        .requestId(request.getId())
        .reviewId(reviewId)
        .policyDecisionId(request.getPolicyDecisionId())
        .requestRevision(requestAt.revision())
        .requestEventHash(requestAt.lastEventHash())
        .normalizedActionHash(ActionHash.of(action))
        .approvedAction(action)
        .allowedScope(new ApprovalBoundary().scopeRef(scopeRef))
        .deniedScope(new ApprovalBoundary().scopeRef("scope:anything-else"))
        .expiresAt(now().plus(validFor))
        .maxUses(1L)
        .appliesToWorkSessionId(request.getWorkSessionId())
        .appliesToActorId(request.getRequesterActorId());
  }

  // ---- working ----

  /**
   * An event draft for {@code appendJarvisEvent}: its type and what it is about. The client fills
   * {@code id}, {@code work_session_id}, {@code actor_id} and {@code timestamp} where unset, and
   * links it into the chain ({@code sequence}, {@code previous_hash}, {@code event_hash}).
   */
  public static JarvisEvent event(
      String type, JarvisEventPayload.ObjectTypeEnum objectType, String objectId, String action) {
    return new JarvisEvent()
        .type(type)
        .payload(new JarvisEventPayload().objectType(objectType).objectId(objectId).action(action));
  }

  /**
   * The same draft addressed as the client addresses it when it sends, for tools that send it raw
   * (the conformance suite, the load generator): a fresh {@code evt-} id, the WorkSession, the
   * acting Actor and now. Link it with {@code EventChain.next}.
   */
  public JarvisEvent addressedEvent(
      String workSessionId,
      String type,
      JarvisEventPayload.ObjectTypeEnum objectType,
      String objectId,
      String action) {
    return event(type, objectType, objectId, action)
        .id(newId("evt"))
        .workSessionId(workSessionId)
        .actorId(actorId)
        .timestamp(now());
  }

  /**
   * The event of an agent performing the action a PolicyDecision allowed (or its Review approved):
   * about the decision, naming its action, and citing it as {@code policy_decision:<id>} in {@code
   * payload.evidence_refs}, the reference hosts bind approvals by ({@code
   * docs/protocol-decisions.md}).
   */
  public static JarvisEvent actionEvent(PolicyDecision decision, String type) {
    JarvisEvent event =
        event(
            type,
            JarvisEventPayload.ObjectTypeEnum.POLICY_DECISION,
            decision.getId(),
            decision.getRequestedAction().getAction());
    event
        .getPayload()
        .setEvidenceRefs(new LinkedHashSet<>(List.of("policy_decision:" + decision.getId())));
    return event;
  }

  /** The event that completes a WorkSession ({@code work_session.completed}). */
  public static JarvisEvent completion(String workSessionId) {
    return event(
        "work_session.completed",
        JarvisEventPayload.ObjectTypeEnum.WORK_SESSION,
        workSessionId,
        "completed");
  }

  /** One contributor: a Worker, the Actor that acted for it, and its role. */
  public static ContributorRef contributor(String workerId, String actorId, ContributionRole role) {
    return new ContributorRef().workerId(workerId).actorId(actorId).contributionRole(role);
  }

  /** A Contribution, now, supported by {@code eventIds}. */
  public Contribution contribution(
      String workSessionId,
      ContributorType contributorType,
      ContributionType contributionType,
      List<ContributorRef> contributors,
      String... eventIds) {
    return new Contribution()
        .id(newId("contribution"))
        .workSessionId(workSessionId)
        .contributorRefs(new LinkedHashSet<>(contributors))
        .contributorType(contributorType)
        .contributionType(contributionType)
        .eventRefs(new LinkedHashSet<>(List.of(eventIds)))
        .createdAt(now());
  }

  /**
   * A Takeover requested and controlled by the acting Actor, {@code locked} at epoch 1, now. Move
   * it on by recording a copy with {@code .state(...)} and the reconciliation fields.
   */
  public Takeover takeover(
      String workSessionId, BlockingScope blockingScope, String scopeRef, String reason) {
    return new Takeover()
        .id(newId("takeover"))
        .workSessionId(workSessionId)
        .requestedByActorId(actorId)
        .controllingActorId(actorId)
        .affectedScope(new TakeoverScope().blockingScope(blockingScope).scopeRef(scopeRef))
        .reason(reason)
        .lockEpoch(1L)
        .state(TakeoverState.LOCKED)
        .createdAt(now());
  }

  // ---- learning ----

  /** A {@code proposed} LearningRecord by the acting Actor, now, from {@code sourceEventIds}. */
  public LearningRecord learningRecord(
      String workSessionId,
      LearningSubjectType subjectType,
      String subjectRef,
      String lessonType,
      String scope,
      String... sourceEventIds) {
    return new LearningRecord()
        .id(newId("learning"))
        .workSessionId(workSessionId)
        .createdByActorId(actorId)
        .subjectType(subjectType)
        .subjectRef(subjectRef)
        .lessonType(lessonType)
        .sourceEventRefs(new LinkedHashSet<>(List.of(sourceEventIds)))
        .reviewState(LearningReviewState.PROPOSED)
        .scope(scope)
        .createdAt(now());
  }

  /**
   * A MemoryProposal by the acting Actor, now, {@code pending_review} with {@code review_required}
   * true (the protocol refuses silent memory changes).
   */
  public MemoryProposal memoryProposal(
      String workSessionId,
      ProposalTargetType proposedFor,
      String memoryScope,
      String memoryType,
      String content,
      double confidence,
      String... provenance) {
    return new MemoryProposal()
        .id(newId("memory"))
        .workSessionId(workSessionId)
        .proposedByActorId(actorId)
        .proposedFor(proposedFor)
        .memoryScope(memoryScope)
        .memoryType(memoryType)
        .content(JarvisJson.mapper().getNodeFactory().textNode(content))
        .provenance(new LinkedHashSet<>(List.of(provenance)))
        .confidence(BigDecimal.valueOf(confidence))
        .reviewRequired(true)
        .status(MemoryProposalStatus.PENDING_REVIEW)
        .createdAt(now());
  }

  /**
   * An OutcomeReport accepted by the acting Actor, received now, citing what was learned. It is a
   * non-WorkSession mutation: it never touches the (sealed) WorkSession.
   */
  public OutcomeReport outcomeReport(
      String workSessionId,
      String sourceRef,
      String reporterRef,
      String outcome,
      String... learningRecordIds) {
    return new OutcomeReport()
        .id(newId("outcome"))
        .workSessionId(workSessionId)
        .sourceRef(sourceRef)
        .reporterRef(reporterRef)
        .acceptedByActorId(actorId)
        .outcome(outcome)
        .learningRecordRefs(new LinkedHashSet<>(List.of(learningRecordIds)))
        .receivedAt(now());
  }
}
