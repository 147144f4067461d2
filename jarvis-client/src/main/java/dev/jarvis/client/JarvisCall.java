package dev.jarvis.client;

import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventPage;
import dev.jarvis.core.requestinbox.InboxPage;
import dev.jarvis.core.requestinbox.RequestInbox;
import dev.jarvis.core.requestread.RequestRead;
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

/**
 * One protocol call as a value: which operation, on which WorkSession, with which body, answered
 * with which record. Run it with {@link JarvisClient#execute} or {@link JarvisClient#executeAsync}.
 * Calls are immutable; {@link #as(String)} and {@link #requiring(List)} return changed copies.
 *
 * @param <T> the protocol record the host answers with
 */
public final class JarvisCall<T> {

  private final ProtocolOperation operation;
  private final Class<T> responseType;
  private final Optional<String> pathParameter;
  private final Optional<String> recordId;
  private final Optional<String> workSessionId;
  private final Optional<Object> body;
  private final Optional<String> actorId;
  private final List<String> requiredCapabilities;
  private final List<String> extensions;
  private final Optional<String> idempotencyKey;
  private final Optional<String> query;

  private JarvisCall(
      ProtocolOperation operation,
      Class<T> responseType,
      Optional<String> pathParameter,
      Optional<String> recordId,
      Optional<String> workSessionId,
      Optional<Object> body,
      Optional<String> actorId,
      List<String> requiredCapabilities,
      List<String> extensions,
      Optional<String> idempotencyKey,
      Optional<String> query) {
    this.operation = operation;
    this.responseType = responseType;
    this.pathParameter = pathParameter;
    this.recordId = recordId;
    this.workSessionId = workSessionId;
    this.body = body;
    this.actorId = actorId;
    this.requiredCapabilities = List.copyOf(requiredCapabilities);
    this.extensions = List.copyOf(extensions);
    this.idempotencyKey = idempotencyKey;
    this.query = query;
  }

  private static <T> JarvisCall<T> of(
      String operationId,
      Class<T> responseType,
      String pathParameter,
      String workSessionId,
      Object body) {
    return new JarvisCall<>(
        ProtocolOperations.byId(operationId),
        responseType,
        Optional.ofNullable(pathParameter),
        Optional.empty(),
        Optional.ofNullable(workSessionId),
        Optional.ofNullable(body),
        Optional.empty(),
        List.of(),
        List.of(),
        Optional.empty(),
        Optional.empty());
  }

  /** The same call made by another Actor ({@code Jarvis-Actor-Id}). */
  public JarvisCall<T> as(String actorId) {
    return new JarvisCall<>(
        operation,
        responseType,
        pathParameter,
        recordId,
        workSessionId,
        body,
        Optional.of(actorId),
        requiredCapabilities,
        extensions,
        idempotencyKey,
        query);
  }

  /**
   * The same read, declaring capabilities the host must have ({@code Jarvis-Required-Capabilities})
   * and extension namespaces requested ({@code Jarvis-Extensions}).
   */
  public JarvisCall<T> requiring(List<String> capabilities, List<String> extensionNamespaces) {
    return new JarvisCall<>(
        operation,
        responseType,
        pathParameter,
        recordId,
        workSessionId,
        body,
        actorId,
        capabilities,
        extensionNamespaces,
        idempotencyKey,
        query);
  }

  /** Same as {@link #requiring(List, List)} with no extension namespaces. */
  public JarvisCall<T> requiring(List<String> capabilities) {
    return requiring(capabilities, extensions);
  }

  /**
   * The same mutation sent with this {@code Jarvis-Idempotency-Key} instead of a fresh one from the
   * options' supplier: how to re-run a mutation whose retries gave up ({@link
   * JarvisTransportException#idempotencyKey()}). A host that applied the first answers with its
   * first answer; one that did not applies it once. The host matches the key with the whole request
   * (Actor, body, expected revision and previous event hash), so re-run it before any other
   * mutation of its WorkSession, and give an event's {@code id} and {@code timestamp} in its draft
   * (the client fills them afresh otherwise).
   */
  public JarvisCall<T> withIdempotencyKey(String key) {
    if (!operation.operationClass().isMutation()) {
      throw new IllegalArgumentException(operation.operationId() + " is a read: it has no key");
    }
    if (key.isEmpty()) {
      throw new IllegalArgumentException("an idempotency key is not empty");
    }
    return new JarvisCall<>(
        operation,
        responseType,
        pathParameter,
        recordId,
        workSessionId,
        body,
        actorId,
        requiredCapabilities,
        extensions,
        Optional.of(key),
        query);
  }

  /** The idempotency key this call is pinned to; empty: a fresh one per {@code execute}. */
  public Optional<String> idempotencyKey() {
    return idempotencyKey;
  }

  public ProtocolOperation operation() {
    return operation;
  }

  /** The record the host answers with. */
  public Class<T> responseType() {
    return responseType;
  }

  /** The value of the operation's first path parameter, if its path has one. */
  public Optional<String> pathParameter() {
    return pathParameter;
  }

  /**
   * The values of the operation's path parameters, in the order of its path: the WorkSession (or
   * Worker, Actor) id, then, for the {@code request-read} reads, the Request's or Review's id.
   */
  public List<String> pathParameters() {
    return recordId.isEmpty()
        ? pathParameter.map(List::of).orElse(List.of())
        : List.of(pathParameter.orElseThrow(), recordId.get());
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

  /**
   * The query string, without {@code ?}; only the {@code event-log} and {@code request-inbox} reads
   * have one.
   */
  public Optional<String> query() {
    return query;
  }

  @Override
  public String toString() {
    return operation.operationId() + workSessionId.map(ws -> " on " + ws).orElse("");
  }

  // ---- the 15 operations ----

  public static JarvisCall<Worker> registerWorker(Worker worker) {
    Objects.requireNonNull(worker, "worker");
    return of("registerWorker", Worker.class, pathId(worker.getId()), null, worker);
  }

  public static JarvisCall<Actor> registerActor(Actor actor) {
    Objects.requireNonNull(actor, "actor");
    return of("registerActor", Actor.class, pathId(actor.getId()), null, actor);
  }

  /** Creates a WorkSession (genesis: revision 0, {@code hash:protocol-genesis}). */
  public static JarvisCall<WorkSession> createWorkSession(WorkSession session) {
    Objects.requireNonNull(session, "session");
    return of("createWorkSession", WorkSession.class, null, session.getId(), session);
  }

  public static JarvisCall<WorkSession> getWorkSession(String workSessionId) {
    return read("getWorkSession", WorkSession.class, workSessionId);
  }

  /**
   * Appends an event. Give the type, payload and whatever else you choose to set; the client fills
   * {@code sequence}, {@code previous_hash}, {@code event_hash} and {@code canonicalization} from
   * the WorkSession's chain, and {@code id}, {@code work_session_id}, {@code actor_id} and {@code
   * timestamp} where you left them unset.
   */
  public static JarvisCall<JarvisEvent> appendJarvisEvent(String workSessionId, JarvisEvent draft) {
    return scoped("appendJarvisEvent", JarvisEvent.class, workSessionId, draft);
  }

  public static JarvisCall<PolicyDecision> recordPolicyDecision(
      String workSessionId, PolicyDecision decision) {
    return scoped("recordPolicyDecision", PolicyDecision.class, workSessionId, decision);
  }

  public static JarvisCall<Request> createRequest(String workSessionId, Request request) {
    return scoped("createRequest", Request.class, workSessionId, request);
  }

  public static JarvisCall<Review> recordReview(String workSessionId, Review review) {
    return scoped("recordReview", Review.class, workSessionId, review);
  }

  public static JarvisCall<Takeover> recordTakeover(String workSessionId, Takeover takeover) {
    return scoped("recordTakeover", Takeover.class, workSessionId, takeover);
  }

  public static JarvisCall<Contribution> recordContribution(
      String workSessionId, Contribution contribution) {
    return scoped("recordContribution", Contribution.class, workSessionId, contribution);
  }

  public static JarvisCall<LearningRecord> createLearningRecord(
      String workSessionId, LearningRecord record) {
    return scoped("createLearningRecord", LearningRecord.class, workSessionId, record);
  }

  public static JarvisCall<MemoryProposal> createMemoryProposal(
      String workSessionId, MemoryProposal proposal) {
    return scoped("createMemoryProposal", MemoryProposal.class, workSessionId, proposal);
  }

  public static JarvisCall<SkillProposal> createSkillProposal(
      String workSessionId, SkillProposal proposal) {
    return scoped("createSkillProposal", SkillProposal.class, workSessionId, proposal);
  }

  public static JarvisCall<EvidenceManifest> exportEvidenceManifest(String workSessionId) {
    return read("exportEvidenceManifest", EvidenceManifest.class, workSessionId);
  }

  public static JarvisCall<OutcomeReport> submitOutcomeReport(OutcomeReport report) {
    Objects.requireNonNull(report, "report");
    return of("submitOutcomeReport", OutcomeReport.class, null, null, report);
  }

  /**
   * One page of a WorkSession's events: the {@code event-log} capability's read, beyond the spec
   * ({@link EventLog}). It requires the capability ({@code Jarvis-Required-Capabilities}), so a
   * host without it refuses rather than answers something else.
   */
  public static JarvisCall<EventPage> listJarvisEvents(
      String workSessionId, EventLog.PageRequest page) {
    return listJarvisEvents(workSessionId, page.query());
  }

  /**
   * The page read as a long poll ({@code event-stream}): the host waits up to {@code waitSeconds}
   * (0 to {@link EventLog#MAX_WAIT_SECONDS}) for an event after the page's start before answering
   * the empty page.
   */
  static JarvisCall<EventPage> listJarvisEvents(
      String workSessionId, EventLog.PageRequest page, int waitSeconds) {
    if (waitSeconds < 0 || waitSeconds > EventLog.MAX_WAIT_SECONDS) {
      throw new IllegalArgumentException("wait is 0 to " + EventLog.MAX_WAIT_SECONDS + " seconds");
    }
    return listJarvisEvents(workSessionId, page.query() + "&" + EventLog.WAIT + "=" + waitSeconds);
  }

  private static JarvisCall<EventPage> listJarvisEvents(String workSessionId, String query) {
    Objects.requireNonNull(workSessionId, "workSessionId");
    return new JarvisCall<>(
        EventLog.OPERATION,
        EventPage.class,
        Optional.of(workSessionId),
        Optional.empty(),
        Optional.of(workSessionId),
        Optional.empty(),
        Optional.empty(),
        List.of(EventLog.CAPABILITY),
        List.of(),
        Optional.empty(),
        Optional.of(query));
  }

  /**
   * One page of the calling human's inbox: the {@code request-inbox} capability's read, beyond the
   * spec ({@link RequestInbox}), of the Requests waiting on the calling Actor's human Worker across
   * WorkSessions. It names no WorkSession and no Worker: the host answers for the Actor of {@code
   * Jarvis-Actor-Id}. It requires the capability, so a host without it refuses rather than answers
   * something else. A query with a {@link RequestInbox.Query#waitFor()} is a long poll: the host
   * holds the answer up to that long for a Request after the query's cursor.
   */
  public static JarvisCall<InboxPage> listInboxRequests(RequestInbox.Query query) {
    Objects.requireNonNull(query, "query");
    return new JarvisCall<>(
        RequestInbox.OPERATION,
        InboxPage.class,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        List.of(RequestInbox.CAPABILITY),
        List.of(),
        Optional.empty(),
        Optional.of(query.query()));
  }

  /**
   * A Request of the WorkSession as the host holds it now (its status, and how it was resolved):
   * the {@code request-read} capability's read, beyond the spec ({@link RequestRead}). It requires
   * the capability, so a host without it refuses rather than answers something else.
   */
  public static JarvisCall<Request> getRequest(String workSessionId, String requestId) {
    return recordRead(RequestRead.GET_REQUEST, Request.class, workSessionId, requestId);
  }

  /**
   * A Review of the WorkSession as recorded, its ApprovalScope included: the {@code request-read}
   * capability's other read ({@link RequestRead}).
   */
  public static JarvisCall<Review> getReview(String workSessionId, String reviewId) {
    return recordRead(RequestRead.GET_REVIEW, Review.class, workSessionId, reviewId);
  }

  private static <T> JarvisCall<T> recordRead(
      ProtocolOperation operation, Class<T> type, String workSessionId, String recordId) {
    Objects.requireNonNull(workSessionId, "workSessionId");
    Objects.requireNonNull(recordId, "recordId");
    return new JarvisCall<>(
        operation,
        type,
        Optional.of(workSessionId),
        Optional.of(recordId),
        Optional.of(workSessionId),
        Optional.empty(),
        Optional.empty(),
        List.of(RequestRead.CAPABILITY),
        List.of(),
        Optional.empty(),
        Optional.empty());
  }

  /** A read of one WorkSession: its id is the path parameter. */
  private static <T> JarvisCall<T> read(
      String operationId, Class<T> responseType, String workSessionId) {
    Objects.requireNonNull(workSessionId, "workSessionId");
    return of(operationId, responseType, workSessionId, workSessionId, null);
  }

  /** A WorkSession-scoped mutation: the WorkSession id is the path parameter, the body required. */
  private static <T> JarvisCall<T> scoped(
      String operationId, Class<T> responseType, String workSessionId, Object body) {
    Objects.requireNonNull(workSessionId, "workSessionId");
    Objects.requireNonNull(body, "body");
    return of(operationId, responseType, workSessionId, workSessionId, body);
  }

  /** A path id that can be encoded; a missing one is refused by pre-flight validation. */
  private static String pathId(String id) {
    return id == null ? "" : id;
  }
}
