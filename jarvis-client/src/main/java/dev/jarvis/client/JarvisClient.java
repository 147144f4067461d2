package dev.jarvis.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.audit.AuditReport;
import dev.jarvis.client.governed.GovernedAction;
import dev.jarvis.client.governed.GovernedOptions;
import dev.jarvis.client.internal.BuiltInPipeline;
import dev.jarvis.client.internal.CallScope;
import dev.jarvis.client.internal.EventSubscription;
import dev.jarvis.client.internal.EventWalk;
import dev.jarvis.client.internal.FailureCause;
import dev.jarvis.client.internal.Pipeline;
import dev.jarvis.client.internal.ResolutionAwait;
import dev.jarvis.client.internal.SessionCursors;
import dev.jarvis.client.pipeline.JarvisPipeline;
import dev.jarvis.client.pipeline.PipelineResponse;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.error.JarvisProtocolException;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventPage;
import dev.jarvis.core.policy.PlannedAction;
import dev.jarvis.core.policy.PolicyAssignments;
import dev.jarvis.core.policy.PolicyEvaluation;
import dev.jarvis.core.policy.PolicyEvaluator;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.core.requestinbox.InboxPage;
import dev.jarvis.core.requestinbox.RequestInbox;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.model.Actor;
import dev.jarvis.model.Contribution;
import dev.jarvis.model.EvidenceManifest;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.LearningRecord;
import dev.jarvis.model.MemoryProposal;
import dev.jarvis.model.OutcomeReport;
import dev.jarvis.model.Policy;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.Request;
import dev.jarvis.model.Review;
import dev.jarvis.model.SkillProposal;
import dev.jarvis.model.Takeover;
import dev.jarvis.model.WorkSession;
import dev.jarvis.model.Worker;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Speaks the Jarvis protocol to one host for the caller.
 *
 * <p>Each call goes down one pipeline of named links and its answer comes back up the same links
 * ({@link #pipeline()} lists them; {@code docs/client.md} walks through them): per call it
 * validates the body against the spec (a local refusal sends nothing), fills the protocol headers,
 * takes one idempotency key for all attempts, keeps each WorkSession's revision and last event hash
 * and checks the answer; per attempt it stamps a fresh timestamp, asks for HostAuth, logs and
 * sends, and retries what is safe to retry. Every failure is a {@link JarvisFailure}: {@link
 * JarvisTransportException} (could not reach or read the host), {@link JarvisRefusalException} (a
 * {@link JarvisProtocolException}: the host refused; switch on {@code errorId()}), {@link
 * JarvisInvalidResponseException} (the host answered off-spec). A PolicyDecision whose result is
 * {@code deny} is an ordinary return value.
 *
 * <p>Thread-safe. Concurrent mutations of one WorkSession race for its revision as they would from
 * two clients: one wins, the others get {@link JarvisStaleSessionException}. Close the client to
 * stop the threads of its asynchronous calls.
 */
public final class JarvisClient implements AutoCloseable {

  private final Shared shared;
  private final String actorId;
  private final EventLogPages pages;
  private final SessionAudit audits;

  /** What a client and the clients {@link #as(String)} makes share. */
  private record Shared(
      JarvisClientOptions options,
      Pipeline pipeline,
      SessionCursors cursors,
      Executor executor,
      Optional<ExecutorService> owned,
      AtomicBoolean closed) {}

  private JarvisClient(Shared shared, String actorId) {
    this.shared = shared;
    this.actorId = actorId;
    this.pages = new EventLogPages(this);
    this.audits = new SessionAudit(this, pages, shared.options().actorKeys());
  }

  /**
   * A client for the host and Actor the options name. Nothing is sent and nothing is compiled: the
   * spec's schemas are compiled once per process, on the first call that checks a body (of any
   * client), so creating further clients costs about a millisecond.
   */
  public static JarvisClient create(JarvisClientOptions options) {
    SessionCursors cursors = new SessionCursors();
    Supplier<PayloadValidator> validator = PayloadValidator::forSpec;
    BuiltInPipeline links =
        BuiltInPipeline.of(options, BuiltInPipeline.httpClient(options), validator, cursors);
    Optional<ExecutorService> owned =
        options.executor().isPresent() ? Optional.empty() : Optional.of(ownedExecutor());
    Executor executor = options.executor().orElseGet(owned::orElseThrow);
    Pipeline pipeline = new Pipeline(options.baseUri(), links, cursors);
    return new JarvisClient(
        new Shared(options, pipeline, cursors, executor, owned, new AtomicBoolean()),
        options.actorId());
  }

  /**
   * The default executor: a few daemon threads (asynchronous calls hold none while they wait),
   * which time out when idle, so a client that is never closed keeps no thread alive.
   */
  private static ExecutorService ownedExecutor() {
    AtomicInteger count = new AtomicInteger();
    ThreadFactory threads =
        task -> {
          Thread thread = new Thread(task, "jarvis-client-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        };
    int size = Math.max(2, Runtime.getRuntime().availableProcessors());
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            size, size, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), threads);
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  /**
   * This client acting as another Actor: its calls send {@code Jarvis-Actor-Id: actorId} and the
   * {@code Authorization} the options' {@link ActorAuth} gives that Actor. Pipeline, executor and
   * the one WorkSession cursor store are shared, so a view's mutation builds on what any other view
   * of this client learned; closing any view closes them all.
   */
  public JarvisClient as(String actorId) {
    return new JarvisClient(shared, actorId);
  }

  /** The Actor this client acts as. */
  public String actorId() {
    return actorId;
  }

  /**
   * What the client believes a WorkSession's cursor is; empty if it must re-read it. Shared by
   * every {@link #as(String)} view, and updated before a call's answer is returned: when an {@link
   * #executeAsync} future completes, this already holds what that call learned.
   */
  public Optional<ChainCursor> cursor(String workSessionId) {
    return shared.cursors().get(workSessionId);
  }

  /**
   * The protocol's request records, seeded by this client: ids from its id source (the
   * idempotency-key supplier), times from its clock, this client's Actor where a record names who
   * acts, the protocol version, action hashes and the WorkSession's genesis fields. You state only
   * what is yours to decide; see {@link ProtocolRecords}.
   */
  public ProtocolRecords records() {
    return new ProtocolRecords(
        shared.options().clock(), shared.options().idempotencyKeys(), actorId);
  }

  /**
   * The WorkSession's cursor now: the one the client knows, or else the one a read of the
   * WorkSession finds (a host without the {@code cursor-headers} capability leaves the client
   * knowing none after a mutation). What an ApprovalScope binds a Request by.
   */
  public ChainCursor currentCursor(String workSessionId) {
    return cursor(workSessionId)
        .orElseGet(
            () -> {
              WorkSession session = getWorkSession(workSessionId);
              return new ChainCursor(session.getRevision(), session.getLastEventHash());
            });
  }

  /**
   * What {@code policy} allows for {@code planned}, judged here with the engine every host of this
   * SDK (and {@code JarvisHostStub}) judges with: nothing is sent. An agent knows before asking
   * whether its decision would be {@code allow}, {@code narrow}, {@code review_required} or {@code
   * deny}; record it with {@code records().policyDecision(ws, policyId, action, risk, evaluation)}.
   * Pass {@code PolicyEvaluator.of(policy).forAgent(worker)} to {@link PolicyEvaluator#evaluate}
   * yourself to apply an AgentWorker's autonomy level too.
   */
  public PolicyEvaluation policy(Policy policy, PlannedAction planned) {
    return PolicyEvaluator.of(policy).evaluate(planned);
  }

  /**
   * {@link #policy(Policy, PlannedAction)} within {@code session}, with the host's binding rule
   * first: a Policy that does not govern the WorkSession's human Worker (owned by it, or assigned
   * to it in {@code assignments}, what the host's operator configured) is {@code deny} under rule
   * {@value #WORK_SESSION_POLICY_RULE}, as a host would refuse every decision under it ({@code
   * missing_policy}). Pass {@link PolicyAssignments#none()} when the host assigns nothing. Nothing
   * is sent.
   */
  public PolicyEvaluation policy(
      WorkSession session, Policy policy, PolicyAssignments assignments, PlannedAction planned) {
    if (!policy.getId().equals(session.getPolicyId())
        || !assignments.governs(policy, session.getHumanWorkerId())) {
      return new PolicyEvaluation(
          PolicyDecisionResult.DENY,
          WORK_SESSION_POLICY_RULE,
          "Policy "
              + policy.getId()
              + " does not govern WorkSession "
              + session.getId()
              + " (its Policy is "
              + session.getPolicyId()
              + ", its human Worker "
              + session.getHumanWorkerId()
              + ").");
    }
    return policy(policy, planned);
  }

  /** The rule of a pre-flight {@code deny} for a Policy that does not govern the WorkSession. */
  public static final String WORK_SESSION_POLICY_RULE = "work_session_policy";

  /**
   * One agent action in {@code workSessionId}, to be run under the WorkSession's Policy from
   * decision to record, with {@link GovernedOptions#defaults()}: name it, give its risk class, and
   * {@code build().run(work)} ({@code docs/governed-actions.md}).
   */
  public GovernedAction.Builder governed(String workSessionId) {
    return governed(workSessionId, GovernedOptions.defaults());
  }

  /** {@link #governed(String)} with {@code options}. */
  public GovernedAction.Builder governed(String workSessionId, GovernedOptions options) {
    ensureOpen();
    return GovernedAction.builder(this, workSessionId, options);
  }

  /** The links every call passes through, in order, with your policies in their places. */
  public JarvisPipeline pipeline() {
    return shared.pipeline().links();
  }

  /**
   * Shuts down the executor the client owns (not one given in the options); calls made afterwards
   * fail with {@link IllegalStateException}. Clients made with {@link #as(String)} share it and are
   * closed with it.
   */
  @Override
  public void close() {
    if (shared.closed().compareAndSet(false, true)) {
      shared.owned().ifPresent(ExecutorService::shutdown);
    }
  }

  // ---- running calls ----

  /** Runs a call on this thread and returns the host's answer with its HTTP details. */
  public <T> JarvisResponse<T> execute(JarvisCall<T> call) {
    ensureOpen();
    CallScope scope = CallScope.blocking(shared.options().sleeper());
    // Every built-in link completes its future before returning in a blocking call, so this join
    // waits only for a policy of the caller's that chose to go asynchronous.
    CompletableFuture<PipelineResponse> answer =
        shared.pipeline().send(call, actingActor(call), scope);
    try {
      return response(call, answer.join());
    } catch (CompletionException e) {
      throw FailureCause.rethrowable(e);
    }
  }

  /**
   * Runs a call on the client's executor, never blocking a thread while it waits for the host or
   * before a retry. The future fails with the same exceptions {@link #execute} throws (wrapped in a
   * {@link CompletionException} by {@code join}). Cancelling it cancels the attempt in flight and
   * any retry still to come.
   */
  public <T> CompletableFuture<JarvisResponse<T>> executeAsync(JarvisCall<T> call) {
    ensureOpen();
    Executor executor = shared.executor();
    CallScope scope = CallScope.async(shared.options().sleeper(), executor);
    CompletableFuture<JarvisResponse<T>> result = new CompletableFuture<>();
    CompletableFuture.supplyAsync(
            () -> shared.pipeline().send(call, actingActor(call), scope), executor)
        .thenCompose(answer -> answer)
        .whenComplete(
            (answer, failure) -> {
              if (failure != null) {
                // The failure itself, not the wrapper the stages put around it.
                result.completeExceptionally(FailureCause.of(failure));
                return;
              }
              try {
                result.complete(response(call, answer));
              } catch (RuntimeException e) {
                result.completeExceptionally(e);
              }
            });
    result.whenComplete(
        (done, failure) -> {
          if (result.isCancelled()) {
            scope.cancel();
          }
        });
    return result;
  }

  private void ensureOpen() {
    if (shared.closed().get()) {
      throw new IllegalStateException("the client is closed");
    }
  }

  private String actingActor(JarvisCall<?> call) {
    return call.actorId().orElse(actorId);
  }

  private static <T> JarvisResponse<T> response(JarvisCall<T> call, PipelineResponse answer) {
    T body =
        call.responseType()
            .cast(
                answer
                    .record()
                    .orElseThrow(
                        () ->
                            new IllegalStateException(
                                "a policy answered " + call + " without a checked record")));
    return new JarvisResponse<>(answer.status(), answer.headers(), body, answer.attempts());
  }

  // ---- the event-log capability: the WorkSession's events, and an audit of them ----

  /**
   * One page of a WorkSession's events, from a host with the {@code event-log} capability.
   *
   * @throws JarvisUnsupportedCapabilityException if the host does not have it
   * @throws JarvisInvalidResponseException if the page is off-spec: besides its schema, an empty
   *     page that says more events follow ({@code /has_more}), or more events than asked for
   *     ({@code /events})
   */
  public EventPage eventPage(String workSessionId, EventLog.PageRequest page) {
    return pages.page(workSessionId, page);
  }

  /** {@link #eventPage}, on the client's executor. */
  public CompletableFuture<EventPage> eventPageAsync(
      String workSessionId, EventLog.PageRequest page) {
    return pages.pageAsync(workSessionId, page);
  }

  /**
   * A WorkSession's events in chain order, read lazily a page at a time as the stream is consumed
   * (the first page when it is first pulled), so a log of any length streams in constant memory.
   * Each event is the tree the host sent, not a bound {@link JarvisEvent}, so that its hash can be
   * recomputed over what the host stored. The events are the host's word: {@link #audit} checks
   * them. Close the stream, or consume it, to stop reading. The stream ends at the page that says
   * no more follow; an off-spec page ({@link #eventPage}), an empty one that says more follow among
   * them, fails the stream with {@link JarvisInvalidResponseException}, as it fails {@link
   * #auditAsync}.
   *
   * @throws JarvisUnsupportedCapabilityException from the stream, if the host does not have the
   *     {@code event-log} capability
   */
  public Stream<JsonNode> events(String workSessionId) {
    Objects.requireNonNull(workSessionId, "workSessionId");
    return pages.stream(workSessionId, EventWalk.all());
  }

  /**
   * Audits a WorkSession from outside its host: reads the WorkSession, then its events up to that
   * revision ({@link #events}), re-hashes each from genesis and checks the links, and compares the
   * end of the chain with the WorkSession's {@code revision} and {@code last_event_hash}. The
   * manifest checks are skipped; {@link #audit(String, EvidenceManifest)} makes them. A broken
   * chain is a finding of the report, not an exception; an off-spec page is a {@link
   * JarvisInvalidResponseException}, as from {@link #events}.
   *
   * @throws JarvisUnsupportedCapabilityException if the host does not have the {@code event-log}
   *     capability
   */
  public AuditReport audit(String workSessionId) {
    return audits.audit(workSessionId, Optional.empty());
  }

  /**
   * As {@link #audit(String)}, checking also the WorkSession's exported EvidenceManifest: its
   * {@code event_chain_root} is the last event's hash, and every {@code source_event_refs} entry of
   * its evidence items names an event of the chain. (Exporting seals a WorkSession, so the audit
   * never exports: pass the manifest {@link #exportEvidenceManifest} answered.)
   */
  public AuditReport audit(String workSessionId, EvidenceManifest manifest) {
    return audits.audit(workSessionId, Optional.of(JarvisJson.mapper().valueToTree(manifest)));
  }

  /**
   * {@link #audit(String)}, on the client's executor, a page at a time: the same pages, the same
   * end and the same failures as the blocking audit.
   */
  public CompletableFuture<AuditReport> auditAsync(String workSessionId) {
    return audits.auditAsync(workSessionId);
  }

  // ---- the event-stream capability: a WorkSession followed live ----

  /**
   * A WorkSession's events from genesis on, as they are committed: {@link #subscribe(String, long)}
   * after sequence 0.
   */
  public Flow.Publisher<JsonNode> subscribe(String workSessionId) {
    return subscribe(workSessionId, 0);
  }

  /**
   * A WorkSession's events after sequence {@code afterSequence} (0: from genesis), in chain order,
   * as they are committed: a publisher of {@code java.util.concurrent.Flow}, cold (each subscriber
   * gets a subscription, a connection and a thread of its own), that never completes; it ends with
   * {@code onError} or when the subscriber cancels.
   *
   * <p>Every event is verified before it is delivered: against its predecessor's hash (for a start
   * after {@code afterSequence > 0}, event {@code afterSequence} is read first and its hash
   * checked) and as an event of this WorkSession; a broken chain or another WorkSession's event
   * ends the subscription with {@code onError(}{@link JarvisInvalidResponseException}{@code )}. On
   * a host with the {@code event-stream} capability it follows the host's Server-Sent Events
   * stream, asked for through the client's pipeline as any read (HostAuth, protocol headers, this
   * client's Actor); a dropped connection, a stream silent for longer than {@link
   * JarvisClientOptions#streamReadTimeout()}, or one the host ends, is resumed after the retry
   * policy's back-off with {@code Last-Event-ID} of the last verified event, so nothing is lost or
   * doubled. A host that answers with a JSON page is read by pages instead: long polls ({@code
   * ?wait=}) where it declares {@code event-stream} (something between it and the client does not
   * pass a stream on), page reads with the {@link AwaitPolicy#DEFAULT} waits where it does not.
   *
   * <p>An event is read only once the subscriber asked for it ({@code request(n)}). {@code
   * cancel()} closes the connection and ends the subscription's thread. A refusal (a non-member, a
   * host without {@code event-log}: {@link JarvisUnsupportedCapabilityException}), a host
   * unreachable after the client's own retries, ends it with {@code onError}; so does closing the
   * client, at the subscription's next read of the host (an open stream is not cut by it).
   *
   * @throws IllegalArgumentException if {@code afterSequence} is negative
   */
  public Flow.Publisher<JsonNode> subscribe(String workSessionId, long afterSequence) {
    ensureOpen();
    Objects.requireNonNull(workSessionId, "workSessionId");
    if (afterSequence < 0) {
      throw new IllegalArgumentException("afterSequence cannot be negative: " + afterSequence);
    }
    return subscriber ->
        follow(workSessionId, afterSequence, Optional.empty(), AwaitPolicy.DEFAULT, subscriber);
  }

  private void follow(
      String workSessionId,
      long after,
      Optional<ChainCursor> anchor,
      AwaitPolicy polls,
      Flow.Subscriber<? super JsonNode> subscriber) {
    Objects.requireNonNull(subscriber, "subscriber");
    JarvisClientOptions options = shared.options();
    EventSubscription.start(
        workSessionId,
        after,
        anchor,
        new SessionEvents(
            workSessionId,
            actorId,
            shared.pipeline(),
            options.sleeper(),
            this::ensureOpen,
            call -> execute(call).body()),
        new EventSubscription.Timing(
            options.retryPolicy(),
            options.jitter(),
            polls,
            options.sleeper(),
            options.streamReadTimeout(),
            SessionEvents.longPollSeconds(options.attemptTimeout())),
        PayloadValidator::forSpec,
        subscriber);
  }

  // ---- awaiting a human's answer ----

  /**
   * A Request of the WorkSession as the host holds it now (its status, and what resolved it): the
   * {@code request-read} capability's read ({@code dev.jarvis.core.requestread.RequestRead}).
   *
   * @throws JarvisUnsupportedCapabilityException if the host does not have the capability
   */
  public Request getRequest(String workSessionId, String requestId) {
    return execute(JarvisCall.getRequest(workSessionId, requestId)).body();
  }

  /**
   * A Review of the WorkSession as recorded, its ApprovalScope included: the {@code request-read}
   * capability's other read.
   *
   * @throws JarvisUnsupportedCapabilityException if the host does not have the capability
   */
  public Review getReview(String workSessionId, String reviewId) {
    return execute(JarvisCall.getReview(workSessionId, reviewId)).body();
  }

  // ---- the request-inbox capability: what waits for a human ----

  /**
   * The first page of the calling human's pending Requests, across its WorkSessions: {@link
   * #inbox(RequestInbox.Query)} with {@link RequestInbox.Query#pending()}.
   *
   * @throws JarvisUnsupportedCapabilityException if the host does not have {@code request-inbox}
   * @throws JarvisRefusalException if the host refuses the read ({@code unauthorized_actor} for an
   *     Actor that is not a human Actor of a human Worker: an agent has no inbox)
   */
  public InboxPage inbox() {
    return inbox(RequestInbox.Query.pending());
  }

  /**
   * A page of the calling human's inbox: the Requests whose {@code target_human_worker_id} is the
   * calling Actor's Worker, across WorkSessions, of the query's statuses, after its cursor (a
   * page's {@link InboxPage#nextAfter()}), in the host's write order. With a {@link
   * RequestInbox.Query#waitFor()} it is a long poll: the host answers as soon as such a Request
   * follows the cursor, else the empty page after the wait; a wait the client's attempt timeout
   * would cut (it must end 5 s before) is shortened to fit. The page is checked: no more Requests
   * than asked for, each of an asked status, all waiting on one human, the cursor moving forward.
   *
   * @throws JarvisUnsupportedCapabilityException if the host does not have {@code request-inbox}
   * @throws JarvisRefusalException if the host refuses the read
   * @throws JarvisInvalidResponseException if the page is off-spec
   */
  public InboxPage inbox(RequestInbox.Query query) {
    return execute(JarvisCall.listInboxRequests(fitted(query))).body();
  }

  /** {@link #inbox(RequestInbox.Query)}, on the client's executor. */
  public CompletableFuture<InboxPage> inboxAsync(RequestInbox.Query query) {
    return executeAsync(JarvisCall.listInboxRequests(fitted(query)))
        .thenApply(JarvisResponse::body);
  }

  /** The query with a wait that ends before the attempt times out. */
  private RequestInbox.Query fitted(RequestInbox.Query query) {
    Duration longest =
        Duration.ofSeconds(SessionEvents.longPollSeconds(shared.options().attemptTimeout()));
    return query.waitFor().compareTo(longest) > 0 ? query.waiting(longest) : query;
  }

  /**
   * Waits, blocking this thread, until the human answers Request {@code requestId} or {@code
   * timeout} (by the client's clock) passes, and says which: {@link #awaitResolutionAsync} with the
   * {@link AwaitPolicy#DEFAULT}, joined. An interrupt of this thread stops the await and answers
   * {@link RequestResolution.Outcome#CANCELLED_BY_CALLER} (the interrupt flag set again). Only
   * {@link RequestResolution#approval()} carries an approval; a timeout, a lost host or a
   * cancellation never does.
   *
   * @throws JarvisUnsupportedCapabilityException if the host lacks {@code request-read}
   * @throws JarvisRefusalException if the host refuses the reads (an unknown Request, a non-member)
   * @throws JarvisInvalidResponseException if the host answers off-spec, its event chain breaks, or
   *     it reports a resolution its chain does not record
   */
  public RequestResolution awaitResolution(
      String workSessionId, String requestId, Duration timeout) {
    return awaitResolution(workSessionId, requestId, timeout, AwaitPolicy.DEFAULT);
  }

  /** {@link #awaitResolution(String, String, Duration)}, watching as {@code policy} says. */
  public RequestResolution awaitResolution(
      String workSessionId, String requestId, Duration timeout, AwaitPolicy policy) {
    Instant started = shared.options().clock().instant();
    CompletableFuture<RequestResolution> waiting =
        awaitResolutionAsync(workSessionId, requestId, timeout, policy);
    try {
      return waiting.get();
    } catch (InterruptedException e) {
      waiting.cancel(true);
      Thread.currentThread().interrupt();
      return new RequestResolution.Unresolved(
          RequestResolution.Outcome.CANCELLED_BY_CALLER,
          workSessionId,
          requestId,
          Duration.between(started, shared.options().clock().instant()),
          Optional.empty(),
          Optional.empty());
    } catch (ExecutionException e) {
      throw FailureCause.rethrowable(e);
    }
  }

  /**
   * Waits for the human's answer to Request {@code requestId} without holding a thread: the future
   * completes with the host's outcome once the Request is closed (approved or narrowed with the
   * approving Review's ApprovalScope, denied, answered, sent back for revision, taken over,
   * expired, superseded, cancelled), or with {@link RequestResolution.Outcome#TIMED_OUT} when
   * {@code timeout} passes on the client's clock with the Request still open, or {@link
   * RequestResolution.Outcome#HOST_LOST} when the host stays unreachable. It follows the
   * WorkSession's event log from genesis, verifying each event's hash against its predecessor's,
   * and reads the Request ({@code request-read}) whenever the chain moved. On a host that declares
   * {@code event-stream} it waits on the WorkSession's stream ({@link #subscribe}), so the Request
   * is read again the moment an event is committed; on one with only {@code event-log} it polls the
   * log; on a host without either it re-reads the Request after each wait. The waits come from the
   * options' {@link Sleeper} on the client's executor, so a test drives them without waiting.
   * Cancelling the future stops the reads, the waits and the stream. It fails with the failures
   * {@link #awaitResolution(String, String, Duration)} throws.
   */
  public CompletableFuture<RequestResolution> awaitResolutionAsync(
      String workSessionId, String requestId, Duration timeout) {
    return awaitResolutionAsync(workSessionId, requestId, timeout, AwaitPolicy.DEFAULT);
  }

  /** {@link #awaitResolutionAsync(String, String, Duration)}, watching as {@code policy} says. */
  public CompletableFuture<RequestResolution> awaitResolutionAsync(
      String workSessionId, String requestId, Duration timeout, AwaitPolicy policy) {
    ensureOpen();
    Objects.requireNonNull(workSessionId, "workSessionId");
    Objects.requireNonNull(requestId, "requestId");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(policy, "policy");
    Sleeper sleeper = shared.options().sleeper();
    Executor executor = shared.executor();
    return ResolutionAwait.start(
        workSessionId,
        requestId,
        timeout,
        policy,
        shared.options().clock(),
        wait -> sleeper.delay(wait, executor),
        new ResolutionAwait.Reads() {
          @Override
          public CompletableFuture<JarvisResponse<Request>> request() {
            return executeAsync(JarvisCall.getRequest(workSessionId, requestId));
          }

          @Override
          public CompletableFuture<Review> review(String reviewId) {
            return executeAsync(JarvisCall.getReview(workSessionId, reviewId))
                .thenApply(JarvisResponse::body);
          }

          @Override
          public CompletableFuture<EventPage> page(EventLog.PageRequest page) {
            return eventPageAsync(workSessionId, page);
          }

          @Override
          public Optional<Flow.Publisher<JsonNode>> follow(ChainCursor after) {
            return Optional.of(
                subscriber ->
                    JarvisClient.this.follow(
                        workSessionId, after.revision(), Optional.of(after), policy, subscriber));
          }
        });
  }

  // ---- the 15 operations, blocking ----

  /**
   * Registers (or re-registers) a Worker: {@code PUT /workers/{id}}, a mutation with no WorkSession
   * (no cursor). Admin Actors only on most hosts. Blocks; the same as {@code
   * execute(JarvisCall.registerWorker(...)).body()}; throws what {@link #execute} throws.
   *
   * @return the Worker as the host stored it
   */
  public Worker registerWorker(Worker worker) {
    return execute(JarvisCall.registerWorker(worker)).body();
  }

  /**
   * Registers (or re-registers) an Actor of a registered Worker: {@code PUT /actors/{id}}. Admin
   * Actors only on most hosts. Blocks; the same as {@code
   * execute(JarvisCall.registerActor(...)).body()}; throws what {@link #execute} throws.
   *
   * @return the Actor as the host stored it
   */
  public Actor registerActor(Actor actor) {
    return execute(JarvisCall.registerActor(actor)).body();
  }

  /**
   * Creates a WorkSession at genesis (revision 0, {@code hash:protocol-genesis}): {@code POST
   * /work-sessions}. Build it with {@code records().workSession(...)}; the answer (revision 1)
   * becomes the session's cursor. Blocks; the same as {@code
   * execute(JarvisCall.createWorkSession(...)).body()}; throws what {@link #execute} throws.
   *
   * @return the WorkSession as the host stored it
   */
  public WorkSession createWorkSession(WorkSession session) {
    return execute(JarvisCall.createWorkSession(session)).body();
  }

  /**
   * Reads a WorkSession: {@code GET /work-sessions/{id}}. Updates the client's cursor for it.
   * Blocks; the same as {@code execute(JarvisCall.getWorkSession(...)).body()}; throws what {@link
   * #execute} throws.
   *
   * @return the WorkSession now
   */
  public WorkSession getWorkSession(String workSessionId) {
    return execute(JarvisCall.getWorkSession(workSessionId)).body();
  }

  /**
   * Appends an event to the WorkSession's chain: {@code POST /work-sessions/{id}/events}. The
   * client builds {@code sequence}, {@code previous_hash}, {@code event_hash} and {@code
   * canonicalization} from the cursor (re-reading first if it knows none), fills {@code id}, {@code
   * work_session_id}, {@code actor_id} and {@code timestamp} where unset, and checks the host
   * stored exactly that event. Blocks; the same as {@code
   * execute(JarvisCall.appendJarvisEvent(...)).body()}; throws what {@link #execute} throws.
   *
   * @return the event as stored
   */
  public JarvisEvent appendJarvisEvent(String workSessionId, JarvisEvent draft) {
    return execute(JarvisCall.appendJarvisEvent(workSessionId, draft)).body();
  }

  /**
   * Records a PolicyDecision: {@code POST /work-sessions/{id}/policy-decisions}. A {@code deny} is
   * a value, not a failure; a decision more permissive than the WorkSession's Policy is refused
   * ({@link #policy} tells beforehand). Blocks; the same as {@code
   * execute(JarvisCall.recordPolicyDecision(...)).body()}; throws what {@link #execute} throws.
   *
   * @return the decision as recorded
   */
  public PolicyDecision recordPolicyDecision(String workSessionId, PolicyDecision decision) {
    return execute(JarvisCall.recordPolicyDecision(workSessionId, decision)).body();
  }

  /**
   * Opens a Request for a human decision: {@code POST /work-sessions/{id}/requests}. Record the
   * decision naming it first ({@code records().request(decision, ...)}). Blocks; the same as {@code
   * execute(JarvisCall.createRequest(...)).body()}; throws what {@link #execute} throws.
   *
   * @return the Request as created (status {@code pending})
   */
  public Request createRequest(String workSessionId, Request request) {
    return execute(JarvisCall.createRequest(workSessionId, request)).body();
  }

  /**
   * Records a human's Review of a Request: {@code POST /work-sessions/{id}/reviews}. Hosts admit
   * only a human Actor of the reviewing Worker; an approval binds the Request by the cursor after
   * it ({@link #currentCursor}). Blocks; the same as {@code
   * execute(JarvisCall.recordReview(...)).body()}; throws what {@link #execute} throws.
   *
   * @return the Review as recorded
   */
  public Review recordReview(String workSessionId, Review review) {
    return execute(JarvisCall.recordReview(workSessionId, review)).body();
  }

  /**
   * Records a human taking over (or handing back) a scope: {@code POST /work-
   * sessions/{id}/takeovers}. Human Actors only. Blocks; the same as {@code
   * execute(JarvisCall.recordTakeover(...)).body()}; throws what {@link #execute} throws.
   *
   * @return the Takeover as recorded
   */
  public Takeover recordTakeover(String workSessionId, Takeover takeover) {
    return execute(JarvisCall.recordTakeover(workSessionId, takeover)).body();
  }

  /**
   * Records who contributed what: {@code POST /work-sessions/{id}/contributions}. An evidence
   * export needs at least one. Blocks; the same as {@code
   * execute(JarvisCall.recordContribution(...)).body()}; throws what {@link #execute} throws.
   *
   * @return the Contribution as recorded
   */
  public Contribution recordContribution(String workSessionId, Contribution contribution) {
    return execute(JarvisCall.recordContribution(workSessionId, contribution)).body();
  }

  /**
   * Records a lesson learned in the WorkSession: {@code POST /work-sessions/{id}/learning-
   * records}. Blocks; the same as {@code execute(JarvisCall.createLearningRecord(...)).body()};
   * throws what {@link #execute} throws.
   *
   * @return the LearningRecord as recorded
   */
  public LearningRecord createLearningRecord(String workSessionId, LearningRecord record) {
    return execute(JarvisCall.createLearningRecord(workSessionId, record)).body();
  }

  /**
   * Proposes a memory for review: {@code POST /work-sessions/{id}/memory-proposals}. Blocks; the
   * same as {@code execute(JarvisCall.createMemoryProposal(...)).body()}; throws what {@link
   * #execute} throws.
   *
   * @return the MemoryProposal as recorded (pending review)
   */
  public MemoryProposal createMemoryProposal(String workSessionId, MemoryProposal proposal) {
    return execute(JarvisCall.createMemoryProposal(workSessionId, proposal)).body();
  }

  /**
   * Proposes a skill for review: {@code POST /work-sessions/{id}/skill-proposals}. Blocks; the same
   * as {@code execute(JarvisCall.createSkillProposal(...)).body()}; throws what {@link #execute}
   * throws.
   *
   * @return the SkillProposal as recorded
   */
  public SkillProposal createSkillProposal(String workSessionId, SkillProposal proposal) {
    return execute(JarvisCall.createSkillProposal(workSessionId, proposal)).body();
  }

  /**
   * Exports the WorkSession's evidence manifest: {@code GET /work-sessions/{id}/export}, a read.
   * Refused while the WorkSession records no Contribution. Blocks; the same as {@code
   * execute(JarvisCall.exportEvidenceManifest(...)).body()}; throws what {@link #execute} throws.
   *
   * @return the manifest the host assembled
   */
  public EvidenceManifest exportEvidenceManifest(String workSessionId) {
    return execute(JarvisCall.exportEvidenceManifest(workSessionId)).body();
  }

  /**
   * Submits an outcome report: {@code POST /outcome-reports}, a mutation with no WorkSession
   * cursor. Blocks; the same as {@code execute(JarvisCall.submitOutcomeReport(...)).body()}; throws
   * what {@link #execute} throws.
   *
   * @return the OutcomeReport as recorded
   */
  public OutcomeReport submitOutcomeReport(OutcomeReport report) {
    return execute(JarvisCall.submitOutcomeReport(report)).body();
  }
}
