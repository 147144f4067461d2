package dev.jarvis.client;

import dev.jarvis.client.generated.invoker.ApiException;
import dev.jarvis.client.generated.invoker.ApiResponse;
import dev.jarvis.client.internal.GeneratedApis;
import dev.jarvis.client.internal.Invoker;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.model.Actor;
import dev.jarvis.model.Contribution;
import dev.jarvis.model.EvidenceManifest;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.LearningRecord;
import dev.jarvis.model.MemoryProposal;
import dev.jarvis.model.OutcomeReport;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.Request;
import dev.jarvis.model.Review;
import dev.jarvis.model.SkillProposal;
import dev.jarvis.model.Takeover;
import dev.jarvis.model.WorkSession;
import dev.jarvis.model.Worker;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * One protocol call as a value: which operation, on which WorkSession, with which body. Run it with
 * {@link JarvisClient#execute} or {@link JarvisClient#executeAsync}. Calls are immutable; {@link
 * #as(String)} and {@link #requiring(List)} return changed copies.
 *
 * @param <T> the protocol record the host answers with
 */
public final class JarvisCall<T> {

  private final ProtocolOperation operation;
  private final Optional<String> workSessionId;
  private final Optional<Object> body;
  private final Invoker<T> invoker;
  private final Optional<String> actorId;
  private final List<String> requiredCapabilities;
  private final List<String> extensions;

  private JarvisCall(
      String operationId,
      Optional<String> workSessionId,
      Optional<Object> body,
      Invoker<T> invoker,
      Optional<String> actorId,
      List<String> requiredCapabilities,
      List<String> extensions) {
    this.operation = ProtocolOperations.byId(operationId);
    this.workSessionId = workSessionId;
    this.body = body;
    this.invoker = invoker;
    this.actorId = actorId;
    this.requiredCapabilities = List.copyOf(requiredCapabilities);
    this.extensions = List.copyOf(extensions);
  }

  private static <T> JarvisCall<T> of(
      String operationId, String workSessionId, Object body, Invoker<T> invoker) {
    return new JarvisCall<>(
        operationId,
        Optional.ofNullable(workSessionId),
        Optional.ofNullable(body),
        invoker,
        Optional.empty(),
        List.of(),
        List.of());
  }

  /** The same call made by another Actor ({@code Jarvis-Actor-Id}). */
  public JarvisCall<T> as(String actorId) {
    return new JarvisCall<>(
        operation.operationId(),
        workSessionId,
        body,
        invoker,
        Optional.of(actorId),
        requiredCapabilities,
        extensions);
  }

  /**
   * The same read, declaring capabilities the host must have ({@code Jarvis-Required-Capabilities})
   * and extension namespaces requested ({@code Jarvis-Extensions}).
   */
  public JarvisCall<T> requiring(List<String> capabilities, List<String> extensionNamespaces) {
    return new JarvisCall<>(
        operation.operationId(),
        workSessionId,
        body,
        invoker,
        actorId,
        capabilities,
        extensionNamespaces);
  }

  /** Same as {@link #requiring(List, List)} with no extension namespaces. */
  public JarvisCall<T> requiring(List<String> capabilities) {
    return requiring(capabilities, extensions);
  }

  public ProtocolOperation operation() {
    return operation;
  }

  public Optional<String> workSessionId() {
    return workSessionId;
  }

  public Optional<Object> body() {
    return body;
  }

  public Optional<String> actorId() {
    return actorId;
  }

  public List<String> requiredCapabilities() {
    return requiredCapabilities;
  }

  public List<String> extensions() {
    return extensions;
  }

  Invoker<T> invoker() {
    return invoker;
  }

  // ---- the 15 operations ----

  public static JarvisCall<Worker> registerWorker(Worker worker) {
    Objects.requireNonNull(worker, "worker");
    return of(
        "registerWorker",
        null,
        worker,
        (api, h, b) ->
            api.workers.registerWorkerWithHttpInfo(
                pathId(worker.getId()),
                h.protocolVersion(),
                h.actorId(),
                h.idempotencyKey(),
                h.requestTimestamp(),
                (Worker) b));
  }

  public static JarvisCall<Actor> registerActor(Actor actor) {
    Objects.requireNonNull(actor, "actor");
    return of(
        "registerActor",
        null,
        actor,
        (api, h, b) ->
            api.workers.registerActorWithHttpInfo(
                pathId(actor.getId()),
                h.protocolVersion(),
                h.actorId(),
                h.idempotencyKey(),
                h.requestTimestamp(),
                (Actor) b));
  }

  /** Creates a WorkSession (genesis: revision 0, {@code hash:protocol-genesis}). */
  public static JarvisCall<WorkSession> createWorkSession(WorkSession session) {
    Objects.requireNonNull(session, "session");
    return of(
        "createWorkSession",
        session.getId(),
        session,
        (api, h, b) ->
            api.workSessions.createWorkSessionWithHttpInfo(
                h.protocolVersion(),
                h.actorId(),
                h.idempotencyKey(),
                h.requestTimestamp(),
                h.expectedRevision(),
                h.previousEventHash(),
                (WorkSession) b));
  }

  public static JarvisCall<WorkSession> getWorkSession(String workSessionId) {
    return of(
        "getWorkSession",
        Objects.requireNonNull(workSessionId, "workSessionId"),
        null,
        (api, h, b) ->
            api.workSessions.getWorkSessionWithHttpInfo(
                workSessionId,
                h.protocolVersion(),
                h.actorId(),
                h.requiredCapabilities(),
                h.extensions()));
  }

  /**
   * Appends an event. Give the type, payload and whatever else you choose to set; the client fills
   * {@code sequence}, {@code previous_hash}, {@code event_hash} and {@code canonicalization} from
   * the WorkSession's chain, and {@code id}, {@code work_session_id}, {@code actor_id} and {@code
   * timestamp} where you left them unset.
   */
  public static JarvisCall<JarvisEvent> appendJarvisEvent(String workSessionId, JarvisEvent draft) {
    return scoped(
        "appendJarvisEvent",
        workSessionId,
        draft,
        JarvisEvent.class,
        api -> api.workSessions::appendJarvisEventWithHttpInfo);
  }

  public static JarvisCall<PolicyDecision> recordPolicyDecision(
      String workSessionId, PolicyDecision decision) {
    return scoped(
        "recordPolicyDecision",
        workSessionId,
        decision,
        PolicyDecision.class,
        api -> api.controlPlane::recordPolicyDecisionWithHttpInfo);
  }

  public static JarvisCall<Request> createRequest(String workSessionId, Request request) {
    return scoped(
        "createRequest",
        workSessionId,
        request,
        Request.class,
        api -> api.controlPlane::createRequestWithHttpInfo);
  }

  public static JarvisCall<Review> recordReview(String workSessionId, Review review) {
    return scoped(
        "recordReview",
        workSessionId,
        review,
        Review.class,
        api -> api.controlPlane::recordReviewWithHttpInfo);
  }

  public static JarvisCall<Takeover> recordTakeover(String workSessionId, Takeover takeover) {
    return scoped(
        "recordTakeover",
        workSessionId,
        takeover,
        Takeover.class,
        api -> api.controlPlane::recordTakeoverWithHttpInfo);
  }

  public static JarvisCall<Contribution> recordContribution(
      String workSessionId, Contribution contribution) {
    return scoped(
        "recordContribution",
        workSessionId,
        contribution,
        Contribution.class,
        api -> api.attribution::recordContributionWithHttpInfo);
  }

  public static JarvisCall<LearningRecord> createLearningRecord(
      String workSessionId, LearningRecord record) {
    return scoped(
        "createLearningRecord",
        workSessionId,
        record,
        LearningRecord.class,
        api -> api.learning::createLearningRecordWithHttpInfo);
  }

  public static JarvisCall<MemoryProposal> createMemoryProposal(
      String workSessionId, MemoryProposal proposal) {
    return scoped(
        "createMemoryProposal",
        workSessionId,
        proposal,
        MemoryProposal.class,
        api -> api.learning::createMemoryProposalWithHttpInfo);
  }

  public static JarvisCall<SkillProposal> createSkillProposal(
      String workSessionId, SkillProposal proposal) {
    return scoped(
        "createSkillProposal",
        workSessionId,
        proposal,
        SkillProposal.class,
        api -> api.learning::createSkillProposalWithHttpInfo);
  }

  public static JarvisCall<EvidenceManifest> exportEvidenceManifest(String workSessionId) {
    return of(
        "exportEvidenceManifest",
        Objects.requireNonNull(workSessionId, "workSessionId"),
        null,
        (api, h, b) ->
            api.evidence.exportEvidenceManifestWithHttpInfo(
                workSessionId,
                h.protocolVersion(),
                h.actorId(),
                h.requiredCapabilities(),
                h.extensions()));
  }

  public static JarvisCall<OutcomeReport> submitOutcomeReport(OutcomeReport report) {
    Objects.requireNonNull(report, "report");
    return of(
        "submitOutcomeReport",
        null,
        report,
        (api, h, b) ->
            api.feedback.submitOutcomeReportWithHttpInfo(
                h.protocolVersion(),
                h.actorId(),
                h.idempotencyKey(),
                h.requestTimestamp(),
                (OutcomeReport) b));
  }

  /** The generated method of a WorkSession-scoped mutation: path id, six headers, body. */
  @FunctionalInterface
  private interface ScopedMethod<B, T> {
    ApiResponse<T> call(
        String workSessionId,
        String protocolVersion,
        String actorId,
        String idempotencyKey,
        String requestTimestamp,
        Integer expectedRevision,
        String previousEventHash,
        B body)
        throws ApiException;
  }

  private static <B, T> JarvisCall<T> scoped(
      String operationId,
      String workSessionId,
      B body,
      Class<B> bodyType,
      Function<GeneratedApis, ScopedMethod<B, T>> method) {
    Objects.requireNonNull(workSessionId, "workSessionId");
    Objects.requireNonNull(body, "body");
    return of(
        operationId,
        workSessionId,
        body,
        (api, h, b) ->
            method
                .apply(api)
                .call(
                    workSessionId,
                    h.protocolVersion(),
                    h.actorId(),
                    h.idempotencyKey(),
                    h.requestTimestamp(),
                    h.expectedRevision(),
                    h.previousEventHash(),
                    bodyType.cast(b)));
  }

  /** A path id the generated API can encode; a missing one is refused by pre-flight validation. */
  private static String pathId(String id) {
    return id == null ? "" : id;
  }
}
