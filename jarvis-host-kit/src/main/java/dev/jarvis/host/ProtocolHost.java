package dev.jarvis.host;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.canonical.CanonicalizationException;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventLogQueryException;
import dev.jarvis.core.eventlog.EventStream;
import dev.jarvis.core.requestinbox.RequestInbox;
import dev.jarvis.core.requestread.RequestRead;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.host.internal.ActorAuthority;
import dev.jarvis.host.internal.Applied;
import dev.jarvis.host.internal.ListenerFailures;
import dev.jarvis.host.internal.LiveEvents;
import dev.jarvis.host.internal.OperationDispatch;
import dev.jarvis.host.internal.ProtocolRules;
import dev.jarvis.host.internal.RequestGuard;
import dev.jarvis.host.internal.ResponseFactory;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.Policy;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * The host kit's entry point, independent of any HTTP runtime. A binding hands each request to
 * {@link #answer} and writes back the {@link StoredResponse}; a runtime that routes and checks
 * before it handles (JAX-RS) calls {@link #check}, which reads the request once into its typed
 * exchange ({@link ProtocolCall#exchange()}), then the typed entry {@link #handleCall}. Every
 * answer tells the {@link ProtocolListener} exactly once, here. {@code
 * dev.jarvis.host.jaxrs.JarvisHostFeature} (module {@code jarvis-server-stubs}) wires the latter
 * two into JAX-RS; {@code JarvisHostStub} (module {@code jarvis-testkit}) into WireMock.
 */
public final class ProtocolHost implements AutoCloseable {

  /** Response header: the WorkSession revision after an accepted WorkSession mutation. */
  public static final String WORK_SESSION_REVISION = ResponseFactory.WORK_SESSION_REVISION;

  /** Response header: the last event hash after an accepted WorkSession mutation. */
  public static final String LAST_EVENT_HASH = ResponseFactory.LAST_EVENT_HASH;

  /** The largest request body the guard reads; a binding reads one byte more to know it is over. */
  public static final int MAX_BODY_BYTES = RequestGuard.MAX_BODY_BYTES;

  /** The deepest nesting of arrays and objects the guard accepts in a body; the body is level 1. */
  public static final int MAX_NESTING_LEVELS = RequestGuard.MAX_NESTING_LEVELS;

  private static final int PURGE_BATCH = 500;

  private final HostConfig config;
  private final RequestGuard guard;
  private final ResponseFactory responses;
  private final OperationDispatch dispatch;
  private final OperationRoutes routes = new OperationRoutes();
  private final LiveEvents live;

  public ProtocolHost(HostConfig config) {
    this.config = Objects.requireNonNull(config, "config");
    config.defaultPolicy().ifPresent(ProtocolHost::requireValidPolicy);
    this.live = new LiveEvents(config.stores(), config.streams());
    // The rules see a listener that also wakes this instance's streams on the host's own events
    // (a Request's expiry); config() still answers the configuration as given.
    config = config.withListener(new WakingListener(config.listener(), live));
    ProtocolRules rules = new ProtocolRules(config);
    this.guard =
        new RequestGuard(config, new ActorAuthority(config, config.stores().records(), rules));
    this.responses = new ResponseFactory(config);
    this.dispatch = new OperationDispatch(config, rules, responses);
  }

  /** The configuration. */
  public HostConfig config() {
    return config;
  }

  /**
   * Seeds a Policy. The spec has no operation for Policies; a host holds them as configuration.
   *
   * @throws IllegalArgumentException if it is not a valid {@code Policy}
   */
  public void seedPolicy(JsonNode policy) {
    requireValidPolicy(policy);
    config
        .stores()
        .seed(
            StoredRecord.global(
                RecordKind.POLICY, policy.path(Policy.JSON_PROPERTY_ID).asText(), policy));
  }

  /** The host evaluates every Policy it holds, so it holds none the spec refuses. */
  private static void requireValidPolicy(JsonNode policy) {
    List<ProtocolViolation> violations = PayloadValidator.forSpec().validate("Policy", policy);
    if (!violations.isEmpty()) {
      throw new IllegalArgumentException("not a valid Policy: " + violations.get(0));
    }
    try {
      // The evaluator reads the generated record: a count beyond Java's int must fail here, once.
      JarvisJson.mapper().treeToValue(policy, dev.jarvis.model.Policy.class);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException(
          "a Policy the host cannot read: " + e.getOriginalMessage());
    }
  }

  /**
   * Deletes idempotency records past the retention ({@code HostConfig.idempotencyRetention}, by the
   * host clock), in short batches so that writers never wait long; a host runs it now and then.
   * Answers how many it deleted.
   */
  public long purgeExpiredIdempotencyRecords() {
    Instant notBefore = config.clock().instant().minus(config.idempotencyRetention());
    long total = 0;
    int deleted;
    do {
      deleted = config.stores().idempotency().deleteExpired(notBefore, PURGE_BATCH);
      total += deleted;
    } while (deleted == PURGE_BATCH);
    return total;
  }

  /** How many due Requests one {@link #expireDueRequests} run looks at, at most. */
  public static final int EXPIRY_BATCH = 100;

  /**
   * Writes {@code request.expired} now for open Requests past their {@code expires_at} (by the host
   * clock), without waiting for a member to touch their WorkSession: one run of the expiry sweep
   * ({@link RequestExpirySweep} schedules it). At most {@value #EXPIRY_BATCH} due Requests are
   * looked at per run, the earliest first; a run that finds the batch full runs again. Each
   * WorkSession is expired under its lock through the store's conditional commit, exactly as a
   * member's touch would, so across host instances sharing a store each expiry is written once: an
   * instance that lost the race writes nothing. Answers the expiry events this host wrote.
   */
  public int expireDueRequests() {
    int total = 0;
    int written;
    do {
      written = dispatch.expireDueRequests(EXPIRY_BATCH);
      total += written;
    } while (written >= EXPIRY_BATCH);
    return total;
  }

  /**
   * The binding entry: answers one request for a runtime that does not route by itself. Finds its
   * operation ({@link OperationRoutes}), {@link #check}s it into a {@link ProtocolCall} (the typed
   * exchange, read once), {@link #handleCall handles} it. A path the spec does not have is answered
   * 404, a spec path with another method 405, a refusal with its status, each with a {@code
   * ProtocolError}. It never throws, and the listener has been told exactly once when it returns.
   *
   * @param method the HTTP method
   * @param path the request path as it travelled (percent-encoded, no query string)
   * @param rawQuery the raw query string (without {@code ?}; empty for none), which the {@code
   *     event-log} and {@code request-inbox} reads take their page from ({@link
   *     ProtocolCall#query()}); no spec operation reads one
   * @param headers case-insensitive header lookup
   * @param rawBody the body bytes as they travelled, empty when there is none; handed over, not
   *     copied: the binding writes the array no more
   */
  public StoredResponse answer(
      String method,
      String path,
      String rawQuery,
      Function<String, Optional<String>> headers,
      byte[] rawBody) {
    try {
      Routed routed = route(method, path, rawQuery, headers, rawBody);
      return routed.call().isPresent()
          ? handleCall(routed.call().get()).response()
          : routed.refusal();
    } catch (RuntimeException failure) {
      // A defect outside the call's own handling: still a ProtocolError, never a bare 500.
      return hostFailure(failure);
    }
  }

  /** A request routed and checked into its call, or the answer that refuses it. */
  private record Routed(Optional<ProtocolCall> call, StoredResponse refusal) {}

  private Routed route(
      String method,
      String path,
      String rawQuery,
      Function<String, Optional<String>> headers,
      byte[] rawBody) {
    Optional<OperationRoutes.Route> route;
    try {
      route = routes.find(method, path);
    } catch (IllegalArgumentException malformedEscape) {
      // URLDecoder refuses a broken percent escape in a path parameter: bad input, not a failure.
      return refused(
          failure(400, outsideTheProtocol("The path is not percent-encoded correctly.")));
    }
    // An operation this host does not serve (the event-log read undeclared) is no route either.
    route = route.filter(r -> serves(r.operation()));
    if (route.isEmpty()) {
      return refused(
          routes.hasPath(path)
              ? failure(405, outsideTheProtocol(WRONG_METHOD))
              : failure(404, outsideTheProtocol("No protocol operation exists at this path.")));
    }
    ProtocolOperation operation = route.get().operation();
    try {
      // The query is read by the guard after HostAuth, like every other input.
      return new Routed(
          Optional.of(check(operation, headers, route.get().pathParameters(), rawQuery, rawBody)),
          null);
    } catch (ProtocolRefusal refusal) {
      return refused(refusal(refusal));
    }
  }

  private static Routed refused(StoredResponse answer) {
    return new Routed(Optional.empty(), answer);
  }

  /**
   * As {@link #check(ProtocolOperation, Function, Map, String, byte[])} with no query string: for
   * the operations that take none (every spec operation).
   *
   * @throws ProtocolRefusal on the first broken rule
   */
  public ProtocolCall check(
      ProtocolOperation operation,
      Function<String, Optional<String>> headers,
      Map<String, String> pathParameters,
      byte[] rawBody) {
    return check(operation, headers, pathParameters, "", rawBody);
  }

  /**
   * Runs the request guard and reads the request into its typed exchange, once: headers parsed,
   * body read into one tree and checked against the spec. A valid W3C {@code traceparent} header
   * names the {@code trace_id} of any {@code ProtocolError} this request is answered with. For a
   * runtime that routes and checks before it handles (JAX-RS filters); answer a refusal with {@link
   * #refusal}.
   *
   * @param headers case-insensitive header lookup
   * @param pathParameters path parameter values by the spec's names, decoded
   * @param rawQuery the raw query string (without {@code ?}; empty for none), which the guard
   *     parses once into the call's {@link ProtocolCall#query()}; only the paged reads take one
   * @param rawBody the body bytes as they travelled, empty for reads; handed over, not copied
   * @throws ProtocolRefusal on the first broken rule
   */
  public ProtocolCall check(
      ProtocolOperation operation,
      Function<String, Optional<String>> headers,
      Map<String, String> pathParameters,
      String rawQuery,
      byte[] rawBody) {
    Optional<String> trace = TraceParent.traceId(headers.apply(TraceParent.HEADER));
    if (!serves(operation)) {
      throw new ProtocolRefusal(outsideTheProtocol(WRONG_METHOD), 405)
          .about(operation.operationId(), trace);
    }
    try {
      return guard.check(operation, headers, pathParameters, rawQuery, rawBody).tracedAs(trace);
    } catch (ProtocolRefusal refusal) {
      throw refusal.about(operation.operationId(), trace);
    }
  }

  /**
   * Whether this host answers {@code operation}: every operation of the spec, the {@code event-log}
   * read ({@link EventLog#OPERATION}) where the host declares {@value HostConfig#EVENT_LOG}, and
   * the {@code request-read} reads ({@link RequestRead}) where it declares {@value
   * RequestRead#CAPABILITY}. A binding routes the SDK's reads only when this holds; elsewhere a
   * {@code GET} of their path is answered 405 (or 404), as by a host of the spec alone.
   */
  public boolean serves(ProtocolOperation operation) {
    if (operation.equals(EventLog.OPERATION)) {
      return config.capabilities().contains(HostConfig.EVENT_LOG);
    }
    if (RequestRead.isRead(operation)) {
      return config.capabilities().contains(RequestRead.CAPABILITY);
    }
    if (operation.equals(RequestInbox.OPERATION)) {
      return config.capabilities().contains(RequestInbox.CAPABILITY);
    }
    return true;
  }

  private static final String WRONG_METHOD =
      "The protocol operation at this path takes another HTTP method.";

  /**
   * Not the catalogue's {@code unknown_state} text (check the ids against the host's records): the
   * request reached no operation, so no id of it was looked up.
   */
  private static final String OUTSIDE_REMEDIATION =
      "Send the request as the spec describes its operation: to one of its paths, with that"
          + " operation's method, ids percent-encoded in the path, and a JSON body where it takes"
          + " one.";

  private static ProtocolViolation outsideTheProtocol(String reason) {
    return new ProtocolViolation(
        dev.jarvis.model.ProtocolErrorId.UNKNOWN_STATE,
        "request",
        "/",
        reason,
        OUTSIDE_REMEDIATION);
  }

  /**
   * The typed entry: applies a checked call and says what it came to, accepted (with the event it
   * appended), replayed (an idempotent retry: nothing happened again), refused or failed, with the
   * answer exactly as to be sent. The configured {@link ProtocolListener} has been told, once, when
   * this returns. It never throws: a failure of the host itself (a store that is down, a defect) is
   * answered as {@link #hostFailure} would.
   */
  public HandledCall handleCall(ProtocolCall call) {
    HandledCall handled;
    try {
      Applied applied = dispatch.apply(call);
      handled =
          new HandledCall(
              call,
              applied.replay() ? HandledCall.Outcome.REPLAYED : HandledCall.Outcome.ACCEPTED,
              applied.response(),
              applied.appendedEvent(),
              Optional.empty(),
              Optional.empty());
    } catch (ProtocolRefusal refusal) {
      handled = refused(call, refusal);
    } catch (CanonicalizationException uncarried) {
      // Backstop: the guard refuses such text first; a rule that hashes what it built is still
      // answering bad input, never failing.
      handled = refused(call, new ProtocolRefusal(uncarried.toViolation("request_body")));
    } catch (RuntimeException failure) {
      String traceId = call.traceId().orElseGet(config.traceIds());
      handled =
          new HandledCall(
              call,
              HandledCall.Outcome.FAILED,
              HostFailure.answer(responses, failure, traceId, Optional.of(call.operationId())),
              Optional.empty(),
              Optional.of(HostFailure.ERROR_ID),
              Optional.of(traceId));
    }
    tell(handled);
    handled
        .appendedEvent()
        .ifPresent(
            event -> live.appended(event.path(JarvisEvent.JSON_PROPERTY_WORK_SESSION_ID).asText()));
    return handled;
  }

  private HandledCall refused(ProtocolCall call, ProtocolRefusal refusal) {
    String traceId = call.traceId().orElseGet(config.traceIds());
    return new HandledCall(
        call,
        HandledCall.Outcome.REFUSED,
        responses.error(refusal.httpStatus(), refusal.violation(), traceId),
        Optional.empty(),
        Optional.of(refusal.violation().errorId()),
        Optional.of(traceId));
  }

  /** The one place a handled call reaches the listener. */
  private void tell(HandledCall handled) {
    ProtocolListener listener = config.listener();
    switch (handled.outcome()) {
      case ACCEPTED -> ListenerFailures.contain(() -> listener.accepted(handled));
      case REPLAYED -> ListenerFailures.contain(() -> listener.replayed(handled));
      case REFUSED -> {
        ProtocolCall call = handled.call();
        tell(
            new RefusedCall(
                Optional.of(call.operationId()),
                handled.response().status(),
                handled.errorId().orElseThrow(),
                handled.traceId().orElseThrow(),
                Optional.of(call.actorId()),
                Optional.of(call.operation().path())));
      }
      case FAILED -> {
        ProtocolCall call = handled.call();
        tell(
            new FailedCall(
                Optional.of(call.operationId()),
                handled.response().status(),
                handled.errorId().orElseThrow(),
                handled.traceId().orElseThrow(),
                Optional.of(call.actorId()),
                Optional.of(call.operation().path())));
      }
    }
  }

  /** The one place a refusal reaches the listener. */
  private void tell(RefusedCall refused) {
    ProtocolListener listener = config.listener();
    ListenerFailures.contain(() -> listener.refused(refused));
  }

  /** The one place a failure of the host reaches the listener. */
  private void tell(FailedCall failed) {
    ProtocolListener listener = config.listener();
    ListenerFailures.contain(() -> listener.failed(failed));
  }

  /**
   * The answer to a failure of the host itself, for a binding that caught it outside {@link
   * #answer} or {@link #handleCall}: a {@code ProtocolError} that tells nothing of the internals,
   * {@code 503} with {@code Retry-After} when the store cannot serve now ({@link
   * StoreUnavailableException} anywhere in the cause chain), else {@code 500}. Logged once on
   * {@code dev.jarvis.host} with the same {@code trace_id} and the cause, so that an operator can
   * find what a caller reports; the listener is told.
   */
  public StoredResponse hostFailure(Throwable cause) {
    String traceId = config.traceIds().get();
    StoredResponse answer = HostFailure.answer(responses, cause, traceId, Optional.empty());
    tell(new FailedCall(answer.status(), HostFailure.ERROR_ID, traceId));
    return answer;
  }

  /**
   * The answer to a refusal from {@link #check}: its status and a {@code ProtocolError} whose
   * {@code trace_id} is the request's trace or a fresh one. The listener is told.
   */
  public StoredResponse refusal(ProtocolRefusal refusal) {
    String traceId = refusal.traceId().orElseGet(config.traceIds());
    StoredResponse answer = responses.error(refusal.httpStatus(), refusal.violation(), traceId);
    tell(
        new RefusedCall(
            refusal.operationId(), refusal.httpStatus(), refusal.violation().errorId(), traceId));
    return answer;
  }

  /**
   * The answer to a failure outside the protocol (unknown path, unsupported method); the listener
   * is told of it as a refusal of no operation.
   */
  public StoredResponse failure(int status, ProtocolViolation violation) {
    String traceId = config.traceIds().get();
    StoredResponse answer = responses.error(status, violation, traceId);
    tell(new RefusedCall(Optional.empty(), status, violation.errorId(), traceId));
    return answer;
  }

  /**
   * The answer to a request a binding refuses before it reaches {@link #answer} (too many
   * connections, a body that did not arrive in time): {@code status} with a {@code ProtocolError}
   * ({@code unknown_state}) giving {@code reason}. The listener is told of it as a refusal of no
   * operation.
   */
  public StoredResponse outsideTheProtocol(int status, String reason) {
    return failure(status, outsideTheProtocol(reason));
  }

  /**
   * The answer to a request that arrives while the host is shutting down: 503 with {@code
   * Retry-After} and a full {@code ProtocolError} ({@code unknown_state}, saying nothing was
   * written and a same-key retry is safe), for a binding's drain. The listener is told of it as a
   * refusal of no operation.
   */
  public StoredResponse shuttingDown() {
    String traceId = config.traceIds().get();
    StoredResponse answer = HostFailure.shuttingDown(responses, traceId);
    // Draining is the host's choice, not a failure: nothing broke, and a retry elsewhere succeeds.
    tell(new RefusedCall(Optional.empty(), answer.status(), HostFailure.ERROR_ID, traceId));
    return answer;
  }

  /**
   * Whether answering this request may hold its thread: an {@code event-stream} read ({@code
   * Accept: text/event-stream}, or a long poll {@code ?wait=S} with S above 0) on a host that
   * declares {@value HostConfig#EVENT_STREAM}, or an inbox long poll ({@code ?wait=S} with S above
   * 0) on a host that declares {@value RequestInbox#CAPABILITY}. A binding answers such a request
   * with {@link #answerHeld}; every other with {@link #answer}. Cheap: it reads the method, the
   * path's shape, one header and the query, nothing else.
   */
  public boolean holds(
      String method, String path, String rawQuery, Function<String, Optional<String>> headers) {
    if (!"GET".equals(method)) {
      return false;
    }
    Optional<ProtocolOperation> operation;
    try {
      operation = routes.find(method, path).map(OperationRoutes.Route::operation);
    } catch (IllegalArgumentException malformedEscape) {
      return false;
    }
    return operation.isPresent() && holds(operation.get(), rawQuery, headers);
  }

  private boolean holds(
      ProtocolOperation operation, String rawQuery, Function<String, Optional<String>> headers) {
    if (operation.equals(RequestInbox.OPERATION)) {
      return config.capabilities().contains(RequestInbox.CAPABILITY)
          && RequestInbox.asksToWait(rawQuery);
    }
    return operation.equals(EventLog.OPERATION)
        && config.capabilities().contains(HostConfig.EVENT_STREAM)
        && asksToWait(rawQuery, headers);
  }

  /**
   * Whether an event-log read asks to be held: {@code Accept: text/event-stream}, or a {@code wait}
   * other than 0 (one out of range too: {@link #answerHeld} refuses it as the guard does).
   */
  private static boolean asksToWait(String rawQuery, Function<String, Optional<String>> headers) {
    if (EventStream.isAskedFor(headers.apply("Accept"))) {
      return true;
    }
    try {
      String wait = EventLog.queryParameters(rawQuery).get(EventLog.WAIT);
      return wait != null && !wait.equals("0");
    } catch (EventLogQueryException malformed) {
      // answer() refuses it, at once.
      return false;
    }
  }

  /**
   * Answers a request {@link #holds} says may wait, without waiting: it routes and checks it on the
   * calling thread (HostAuth there sees what is bound to the request's thread, Spring Security's
   * context on a servlet), and may read the store, so call it where {@link #answer} would be. A
   * stream is checked exactly as the page read (HostAuth, read headers, membership, one refusal for
   * a non-member and an unknown WorkSession), then against the subscriber limits ({@code 429}
   * {@code unauthorized_actor}, naming the limit), and answered as a {@link HeldAnswer.Streaming}
   * for the binding to start; a long poll with an event to answer at once, or refused, is {@link
   * HeldAnswer.Answered}, one that waits {@link HeldAnswer.Polling}. Any other request is answered
   * as by {@link #answer}. It never throws.
   */
  public HeldAnswer answerHeld(
      String method,
      String path,
      String rawQuery,
      Function<String, Optional<String>> headers,
      byte[] rawBody) {
    try {
      Routed routed = route(method, path, rawQuery, headers, rawBody);
      return routed.call().isPresent()
          ? answerHeld(routed.call().get(), headers)
          : new HeldAnswer.Answered(routed.refusal());
    } catch (RuntimeException failure) {
      return new HeldAnswer.Answered(hostFailure(failure));
    }
  }

  /**
   * Whether a call already {@link #check checked} (a runtime that routes and checks in filters,
   * JAX-RS) is a stream or a long poll: as {@link #holds(String, String, String, Function)}.
   */
  public boolean holds(ProtocolCall call, Function<String, Optional<String>> headers) {
    return holds(call.operation(), call.query().raw(), headers);
  }

  /**
   * As {@link #answerHeld(String, String, String, Function, byte[])}, for a call already {@link
   * #check checked} (JAX-RS): {@code headers} are the request's, for {@code Accept} and {@code
   * Last-Event-ID}. It never throws.
   */
  public HeldAnswer answerHeld(ProtocolCall call, Function<String, Optional<String>> headers) {
    try {
      if (call.operation().equals(RequestInbox.OPERATION)
          && config.capabilities().contains(RequestInbox.CAPABILITY)) {
        return inboxLongPoll(call);
      }
      if (!call.operation().equals(EventLog.OPERATION)
          || !config.capabilities().contains(HostConfig.EVENT_STREAM)) {
        return new HeldAnswer.Answered(handleCall(call).response());
      }
      return EventStream.isAskedFor(headers.apply("Accept"))
          ? stream(call, headers)
          : longPoll(call);
    } catch (RuntimeException failure) {
      return new HeldAnswer.Answered(hostFailure(failure));
    }
  }

  private HeldAnswer stream(ProtocolCall call, Function<String, Optional<String>> headers) {
    long after;
    try {
      // The query's after was read by the guard; only Last-Event-ID, which wins, is read here.
      Optional<String> lastEventId = headers.apply(EventStream.LAST_EVENT_ID);
      after =
          lastEventId.isPresent()
              ? EventStream.startsAfter(lastEventId, Map.of())
              : call.query().eventPage().after();
    } catch (EventLogQueryException refused) {
      return new HeldAnswer.Answered(
          refusal(
              new ProtocolRefusal(refused.violation(), 400)
                  .about(call.operationId(), call.traceId())));
    }
    // The membership read, made exactly as the page read makes it (the call was checked, HostAuth
    // included, where the request arrived).
    StoredResponse first = handleCall(call).response();
    if (first.status() != 200) {
      return new HeldAnswer.Answered(first);
    }
    LiveEvents.Slot slot;
    try {
      slot = live.acquire(call.actorId());
    } catch (LiveEvents.LimitReached limit) {
      return new HeldAnswer.Answered(tooMany(call, limit));
    }
    Map<String, String> streamHeaders = new LinkedHashMap<>(first.headers());
    streamHeaders.put("Content-Type", EventStream.MEDIA_TYPE);
    streamHeaders.put("Cache-Control", "no-store");
    streamHeaders.remove("Content-Length");
    return new HeldAnswer.Streaming(
        new LiveStream(
            config.stores(),
            live,
            call.pathParameters().get(JarvisEvent.JSON_PROPERTY_WORK_SESSION_ID),
            after,
            streamHeaders,
            slot));
  }

  private HeldAnswer longPoll(ProtocolCall call) {
    Duration wait = call.query().eventWait();
    long after = call.query().eventPage().after();
    String workSessionId = call.pathParameters().get(JarvisEvent.JSON_PROPERTY_WORK_SESSION_ID);
    return held(
        call,
        wait,
        (wake, cut) -> live.watch(workSessionId, wake, cut),
        () -> !config.stores().sessions().events(workSessionId, after, 1).isEmpty());
  }

  /**
   * The inbox read, held until a Request of the asked statuses follows its cursor or its {@code
   * wait} passes. Any append may bring one (a Request is created, or changes status, in any of the
   * caller's WorkSessions), so it wakes on every append and asks the store's inbox index again, a
   * read of one entry.
   */
  private HeldAnswer inboxLongPoll(ProtocolCall call) {
    RequestInbox.Query query = call.query().inbox();
    String worker =
        call.actorRecord()
            .map(a -> a.path(dev.jarvis.model.Actor.JSON_PROPERTY_WORKER_ID).asText())
            .orElse("");
    return held(
        call,
        query.waitFor(),
        live::watchAny,
        () ->
            !config.stores().records().inbox(worker, query.statuses(), query.after(), 1).isEmpty());
  }

  /**
   * A long poll: the read answered at once when it is refused, asks no wait or found what it waits
   * for ({@code ready}) before it read; else held (against the subscriber limits, no thread
   * waiting) until a wake-up finds it ready, the wait passes or the host closes, and read again:
   * what it answers is what the store holds then.
   */
  private HeldAnswer held(
      ProtocolCall call, Duration wait, LongPoll.Watching watching, BooleanSupplier ready) {
    // Asked before the first read, so that a first read after a "ready" holds what made it ready
    // (asked after, it could be ready through a write the first read missed, and answer that
    // stale page). Only the answer below is sent; this read decides nothing else.
    boolean readyBefore = !wait.isZero() && ready.getAsBoolean();
    HandledCall first = handleCall(call);
    if (first.response().status() != 200 || wait.isZero() || readyBefore) {
      return new HeldAnswer.Answered(first.response());
    }
    LiveEvents.Slot slot;
    try {
      slot = live.acquire(call.actorId());
    } catch (LiveEvents.LimitReached limit) {
      return new HeldAnswer.Answered(tooMany(call, limit));
    }
    return new HeldAnswer.Polling(
        new LongPoll(live, watching, ready, slot, () -> page(call)).start(wait));
  }

  /** The page read's answer now; never throws (a store failing is a 503). */
  private StoredResponse page(ProtocolCall call) {
    try {
      return handleCall(call).response();
    } catch (RuntimeException failure) {
      return hostFailure(failure);
    }
  }

  private StoredResponse tooMany(ProtocolCall call, LiveEvents.LimitReached limit) {
    return refusal(
        new ProtocolRefusal(
                new ProtocolViolation(
                    dev.jarvis.model.ProtocolErrorId.UNAUTHORIZED_ACTOR,
                    "request",
                    "/",
                    limit.getMessage(),
                    "Close an event stream or long poll this Actor holds, or retry later; the"
                        + " event log's page read is not limited."),
                429)
            .about(call.operationId(), call.traceId()));
  }

  /**
   * Ends every event stream and long poll this host holds, each cleanly ({@code : end shutdown}),
   * aborting after {@code grace} those whose subscriber does not read; no new one starts. A binding
   * calls it when it starts to drain, before it waits for its other requests. The stores stay open:
   * they are the configuration's.
   */
  public void closeStreams(Duration grace) {
    live.close(grace);
  }

  /** {@link #closeStreams} with a grace of one second. */
  @Override
  public void close() {
    live.close();
  }

  /** Event streams and waiting long polls held now, for a health endpoint or a test. */
  public int openStreams() {
    return live.held();
  }

  /** Tells this instance's streams about the host's own events, then the user's listener. */
  private record WakingListener(ProtocolListener user, LiveEvents live)
      implements ProtocolListener {
    @Override
    public void accepted(HandledCall call) {
      user.accepted(call);
    }

    @Override
    public void replayed(HandledCall call) {
      user.replayed(call);
    }

    @Override
    public void refused(RefusedCall refusal) {
      user.refused(refusal);
    }

    @Override
    public void failed(FailedCall failure) {
      user.failed(failure);
    }

    @Override
    public void hostWrote(HostWrittenEvent written) {
      live.appended(written.workSessionId());
      user.hostWrote(written);
    }
  }

  /** {@code Jarvis-Protocol-Version} and {@code Jarvis-Host-Capabilities}, for every response. */
  public Map<String, String> protocolHeaders() {
    return responses.protocolHeaders();
  }
}
