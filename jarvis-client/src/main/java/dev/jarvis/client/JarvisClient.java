package dev.jarvis.client;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.client.generated.invoker.ApiClient;
import dev.jarvis.client.generated.invoker.ApiException;
import dev.jarvis.client.generated.invoker.ApiResponse;
import dev.jarvis.client.internal.AuthorizingTransport;
import dev.jarvis.client.internal.CallHeaders;
import dev.jarvis.client.internal.Exchange;
import dev.jarvis.client.internal.ExchangeCapture;
import dev.jarvis.client.internal.FixedHttpClientBuilder;
import dev.jarvis.client.internal.GeneratedApis;
import dev.jarvis.client.internal.HostCursorHeaders;
import dev.jarvis.client.internal.JdkTransport;
import dev.jarvis.client.internal.LoggingTransport;
import dev.jarvis.client.internal.RetryingTransport;
import dev.jarvis.client.internal.SessionCursors;
import dev.jarvis.client.internal.Transport;
import dev.jarvis.client.internal.TransportHttpClient;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.OperationClass;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.error.JarvisProtocolException;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.model.Actor;
import dev.jarvis.model.Contribution;
import dev.jarvis.model.EvidenceManifest;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.LearningRecord;
import dev.jarvis.model.MemoryProposal;
import dev.jarvis.model.OutcomeReport;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.ProtocolError;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.Request;
import dev.jarvis.model.Review;
import dev.jarvis.model.SkillProposal;
import dev.jarvis.model.Takeover;
import dev.jarvis.model.WorkSession;
import dev.jarvis.model.Worker;
import java.net.http.HttpClient;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Speaks the Jarvis protocol to one host for the caller.
 *
 * <p>Per call it validates the body against the spec (a local refusal sends nothing), fills the
 * protocol headers, takes one idempotency key for all attempts, keeps each WorkSession's revision
 * and last event hash, retries what is safe to retry, and sorts every failure into one of three
 * kinds: {@link JarvisTransportException} (could not reach or read the host), {@link
 * JarvisProtocolException} (the host refused; switch on {@code errorId()}), {@link
 * JarvisInvalidResponseException} (the host answered off-spec). A PolicyDecision whose result is
 * {@code deny} is an ordinary return value.
 *
 * <p>Thread-safe. Concurrent mutations of one WorkSession race for its revision as they would from
 * two clients: one wins, the others get {@link JarvisStaleSessionException}.
 */
public final class JarvisClient {

  private static final String USER_AGENT = "jarvis-java-sdk/0.1.0";
  private static final Set<Integer> RETRYABLE_STATUS = Set.of(429, 502, 503, 504);
  private static final Set<ProtocolErrorId> STALE_SESSION =
      Set.of(
          ProtocolErrorId.STALE_WORK_SESSION_REVISION, ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH);

  private final JarvisClientOptions options;
  private final String actorId;
  private final GeneratedApis apis;
  private final SessionCursors cursors;
  private final PayloadValidator validator;
  private final ObjectMapper mapper = JarvisJson.mapper();

  private JarvisClient(
      JarvisClientOptions options,
      String actorId,
      GeneratedApis apis,
      SessionCursors cursors,
      PayloadValidator validator) {
    this.options = options;
    this.actorId = actorId;
    this.apis = apis;
    this.cursors = cursors;
    this.validator = validator;
  }

  /** A client for the host and Actor the options name. */
  public static JarvisClient create(JarvisClientOptions options) {
    // The request pipeline, outermost first: retry (fresh timestamp per attempt) → HostAuth and
    // User-Agent → logging → java.net.http. Validation, headers and idempotency happen in
    // execute().
    HttpClient jdk =
        HttpClient.newBuilder()
            // Plain-http hosts must not be offered an h2c upgrade: some runtimes stall on it.
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(options.connectTimeout())
            .build();
    Transport pipeline = new JdkTransport(jdk);
    pipeline = new LoggingTransport(pipeline);
    pipeline =
        new AuthorizingTransport(
            pipeline,
            options.hostAuth(),
            USER_AGENT + options.userAgentSuffix().map(s -> " " + s).orElse(""));
    pipeline =
        new RetryingTransport(
            pipeline,
            options.retryPolicy(),
            options.sleeper(),
            options.clock(),
            options.jitter(),
            options.attemptTimeout(),
            options.totalTimeout());
    TransportHttpClient http = new TransportHttpClient(jdk, pipeline);
    ApiClient generated =
        new ApiClient(
            new FixedHttpClientBuilder(http),
            JarvisJson.mapper(),
            options.baseUri().toString().replaceAll("/+$", ""));
    return new JarvisClient(
        options,
        options.actorId(),
        new GeneratedApis(generated),
        new SessionCursors(),
        PayloadValidator.forSpec());
  }

  /** This client acting as another Actor; WorkSession cursors are shared. */
  public JarvisClient as(String actorId) {
    return new JarvisClient(options, actorId, apis, cursors, validator);
  }

  /** The Actor this client acts as. */
  public String actorId() {
    return actorId;
  }

  /** What the client believes a WorkSession's cursor is; empty if it must re-read it. */
  public Optional<ChainCursor> cursor(String workSessionId) {
    return cursors.get(workSessionId);
  }

  // ---- running calls ----

  /** Runs a call and returns the host's answer with its HTTP details. */
  public <T> JarvisResponse<T> execute(JarvisCall<T> call) {
    ProtocolOperation op = call.operation();
    OperationClass kind = op.operationClass();
    String actor = call.actorId().orElse(actorId);
    String sessionId = call.workSessionId().orElse(null);

    Object body = call.body().orElse(null);
    JsonNode bodyTree = body == null ? null : mapper.valueToTree(body);
    boolean isEvent = op.operationId().equals("appendJarvisEvent");
    if (bodyTree != null && !isEvent) {
      preflight(op, bodyTree);
    }

    ChainCursor cursor =
        switch (kind) {
          case WORKSESSION_GENESIS_MUTATION -> ChainCursor.GENESIS;
          case WORKSESSION_SCOPED_MUTATION -> cursorFor(sessionId, actor);
          default -> null;
        };

    if (isEvent) {
      // The event's chain fields depend on the cursor, so it is built and checked only now.
      bodyTree = EventChain.next(cursor, completeDraft((ObjectNode) bodyTree, sessionId, actor));
      preflight(op, bodyTree);
      body = treeToValue(bodyTree, JarvisEvent.class);
    }

    CallHeaders headers =
        new CallHeaders(
            JarvisSpec.PROTOCOL_VERSION,
            actor,
            kind.isMutation() ? idempotencyKey() : null,
            kind.isMutation() ? RequestTimestamp.format(options.clock().instant()) : null,
            cursor == null ? null : Math.toIntExact(cursor.revision()),
            cursor == null ? null : cursor.lastEventHash(),
            join(call.requiredCapabilities()),
            join(call.extensions()));

    ExchangeCapture.clear();
    try {
      ApiResponse<T> response = call.invoker().invoke(apis, headers, body);
      Exchange exchange = ExchangeCapture.take().orElseThrow();
      return accepted(op, sessionId, cursor, bodyTree, response, exchange);
    } catch (ApiException e) {
      Optional<Exchange> exchange = ExchangeCapture.take();
      if (exchange.isEmpty()) {
        throw new IllegalStateException(op.operationId() + " was not sent: " + e.getMessage(), e);
      }
      throw refused(op, sessionId, actor, exchange.get(), e);
    }
  }

  /**
   * Runs a call on the options' executor. The future fails with the same exceptions {@link
   * #execute} throws, wrapped in a {@link java.util.concurrent.CompletionException}.
   */
  public <T> CompletableFuture<JarvisResponse<T>> executeAsync(JarvisCall<T> call) {
    return CompletableFuture.supplyAsync(() -> execute(call), options.executor());
  }

  /** Validates a body against the spec before anything is sent; a refusal sends nothing. */
  private void preflight(ProtocolOperation op, JsonNode body) {
    List<ProtocolViolation> violations = validator.validateRequestBody(op.operationId(), body);
    if (!violations.isEmpty()) {
      throw JarvisProtocolException.local(violations);
    }
  }

  private ChainCursor cursorFor(String sessionId, String actor) {
    return cursors.get(sessionId).orElseGet(() -> reread(sessionId, actor));
  }

  private ChainCursor reread(String sessionId, String actor) {
    WorkSession session = execute(JarvisCall.getWorkSession(sessionId).as(actor)).body();
    return cursors.get(sessionId).orElseGet(() -> cursorOf(session));
  }

  private static ChainCursor cursorOf(WorkSession session) {
    return new ChainCursor(session.getRevision(), session.getLastEventHash());
  }

  private ObjectNode completeDraft(ObjectNode draft, String sessionId, String actor) {
    if (!draft.has("id")) {
      draft.put("id", "event-" + options.idempotencyKeys().get());
    }
    if (!draft.has("work_session_id")) {
      draft.put("work_session_id", sessionId);
    }
    if (!draft.has("actor_id")) {
      draft.put("actor_id", actor);
    }
    if (!draft.has("timestamp")) {
      draft.put("timestamp", RequestTimestamp.format(options.clock().instant()));
    }
    return draft;
  }

  private String idempotencyKey() {
    String key = options.idempotencyKeys().get();
    if (key == null || key.isEmpty()) {
      throw new IllegalStateException("the idempotency key supplier returned an empty key");
    }
    return key;
  }

  private <T> JarvisResponse<T> accepted(
      ProtocolOperation op,
      String sessionId,
      ChainCursor sent,
      JsonNode sentBody,
      ApiResponse<T> response,
      Exchange exchange) {
    checkProtocolVersionHeader(exchange);
    if (exchange.status() != op.successStatus()) {
      throw new JarvisInvalidResponseException(
          exchange.status(), "status", op.operationId() + " answers " + op.successStatus());
    }
    JsonNode answer = parse(exchange);
    List<ProtocolViolation> violations = validator.validate(op.responseSchema(), answer);
    if (!violations.isEmpty()) {
      ProtocolViolation first = violations.get(0);
      throw new JarvisInvalidResponseException(exchange.status(), first.field(), first.reason());
    }
    T body = response.getData();
    if (body instanceof WorkSession session) {
      cursors.set(session.getId(), cursorOf(session));
    } else if (op.operationId().equals("appendJarvisEvent")) {
      cursors.set(sessionId, checkedEvent(sent, sentBody, answer, exchange.status()));
    } else if (op.operationClass() == OperationClass.WORKSESSION_SCOPED_MUTATION) {
      Optional<ChainCursor> reported;
      try {
        reported = HostCursorHeaders.read(exchange.headers());
      } catch (IllegalArgumentException e) {
        throw new JarvisInvalidResponseException(
            exchange.status(), HostCursorHeaders.REVISION, e.getMessage());
      }
      reported.ifPresentOrElse(c -> cursors.set(sessionId, c), () -> cursors.forget(sessionId));
    }
    return new JarvisResponse<>(exchange.status(), exchange.headers(), body, exchange.attempts());
  }

  /** The host must store the event we built, as we built it, as the next link. */
  private static ChainCursor checkedEvent(
      ChainCursor sent, JsonNode sentEvent, JsonNode stored, int status) {
    Optional<ProtocolViolation> broken = EventChain.checkNext(sent, stored);
    if (broken.isPresent()) {
      throw new JarvisInvalidResponseException(
          status,
          broken.get().field(),
          "the host's event breaks the chain: " + broken.get().reason());
    }
    if (!stored.path("event_hash").equals(sentEvent.path("event_hash"))) {
      throw new JarvisInvalidResponseException(
          status, "/event_hash", "the host stored a different event than the one sent");
    }
    return sent.advance(stored.path("event_hash").asText());
  }

  private RuntimeException refused(
      ProtocolOperation op, String sessionId, String actor, Exchange exchange, ApiException e) {
    if (exchange.status() / 100 == 2) {
      // The generated API could not bind a 2xx body: off-spec.
      String field = e.getCause() instanceof JsonMappingException m ? pointer(m) : "/";
      return new JarvisInvalidResponseException(exchange.status(), field, rootMessage(e));
    }
    if (RETRYABLE_STATUS.contains(exchange.status())) {
      return new JarvisTransportException(
          op.operationId()
              + ": host answered "
              + exchange.status()
              + " after "
              + exchange.attempts()
              + " attempt(s)");
    }
    checkProtocolVersionHeader(exchange);
    JsonNode answer = parse(exchange);
    List<ProtocolViolation> violations = validator.validate("ProtocolError", answer);
    if (!violations.isEmpty()) {
      ProtocolViolation first = violations.get(0);
      throw new JarvisInvalidResponseException(exchange.status(), first.field(), first.reason());
    }
    ProtocolError error = treeToValue(answer, ProtocolError.class, exchange.status());
    if (sessionId != null && STALE_SESSION.contains(error.getErrorId())) {
      cursors.forget(sessionId);
      ChainCursor current = reread(sessionId, actor);
      return new JarvisStaleSessionException(error, sessionId, current);
    }
    return new JarvisProtocolException(error);
  }

  private static void checkProtocolVersionHeader(Exchange exchange) {
    Optional<String> version = exchange.headers().firstValue(JarvisHeaders.PROTOCOL_VERSION);
    if (!version.equals(Optional.of(JarvisSpec.PROTOCOL_VERSION))) {
      throw new JarvisInvalidResponseException(
          exchange.status(),
          JarvisHeaders.PROTOCOL_VERSION,
          "expected " + JarvisSpec.PROTOCOL_VERSION + ", got " + version.orElse("no header"));
    }
  }

  private JsonNode parse(Exchange exchange) {
    try {
      JsonNode tree = mapper.readTree(exchange.body());
      if (tree == null || tree.isMissingNode()) {
        throw new JarvisInvalidResponseException(exchange.status(), "/", "empty body");
      }
      return tree;
    } catch (JacksonException e) {
      throw new JarvisInvalidResponseException(exchange.status(), "/", e.getOriginalMessage());
    } catch (java.io.IOException e) {
      throw new JarvisTransportException("could not read the host's answer", e);
    }
  }

  private <T> T treeToValue(JsonNode tree, Class<T> type) {
    try {
      return mapper.treeToValue(tree, type);
    } catch (JacksonException e) {
      throw new IllegalArgumentException(
          "not a " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
    }
  }

  private <T> T treeToValue(JsonNode tree, Class<T> type, int status) {
    try {
      return mapper.treeToValue(tree, type);
    } catch (JsonMappingException e) {
      throw new JarvisInvalidResponseException(status, pointer(e), e.getOriginalMessage());
    } catch (JacksonException e) {
      throw new JarvisInvalidResponseException(status, "/", e.getOriginalMessage());
    }
  }

  private static String pointer(JsonMappingException e) {
    StringBuilder pointer = new StringBuilder();
    for (JsonMappingException.Reference ref : e.getPath()) {
      pointer.append('/').append(ref.getFieldName() != null ? ref.getFieldName() : ref.getIndex());
    }
    return pointer.length() == 0 ? "/" : pointer.toString();
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t instanceof JacksonException j
        ? j.getOriginalMessage()
        : String.valueOf(t.getMessage());
  }

  private static String join(List<String> tokens) {
    return tokens.isEmpty() ? null : String.join(", ", tokens);
  }

  // ---- the 15 operations, blocking ----

  public Worker registerWorker(Worker worker) {
    return execute(JarvisCall.registerWorker(worker)).body();
  }

  public Actor registerActor(Actor actor) {
    return execute(JarvisCall.registerActor(actor)).body();
  }

  public WorkSession createWorkSession(WorkSession session) {
    return execute(JarvisCall.createWorkSession(session)).body();
  }

  public WorkSession getWorkSession(String workSessionId) {
    return execute(JarvisCall.getWorkSession(workSessionId)).body();
  }

  public JarvisEvent appendJarvisEvent(String workSessionId, JarvisEvent draft) {
    return execute(JarvisCall.appendJarvisEvent(workSessionId, draft)).body();
  }

  public PolicyDecision recordPolicyDecision(String workSessionId, PolicyDecision decision) {
    return execute(JarvisCall.recordPolicyDecision(workSessionId, decision)).body();
  }

  public Request createRequest(String workSessionId, Request request) {
    return execute(JarvisCall.createRequest(workSessionId, request)).body();
  }

  public Review recordReview(String workSessionId, Review review) {
    return execute(JarvisCall.recordReview(workSessionId, review)).body();
  }

  public Takeover recordTakeover(String workSessionId, Takeover takeover) {
    return execute(JarvisCall.recordTakeover(workSessionId, takeover)).body();
  }

  public Contribution recordContribution(String workSessionId, Contribution contribution) {
    return execute(JarvisCall.recordContribution(workSessionId, contribution)).body();
  }

  public LearningRecord createLearningRecord(String workSessionId, LearningRecord record) {
    return execute(JarvisCall.createLearningRecord(workSessionId, record)).body();
  }

  public MemoryProposal createMemoryProposal(String workSessionId, MemoryProposal proposal) {
    return execute(JarvisCall.createMemoryProposal(workSessionId, proposal)).body();
  }

  public SkillProposal createSkillProposal(String workSessionId, SkillProposal proposal) {
    return execute(JarvisCall.createSkillProposal(workSessionId, proposal)).body();
  }

  public EvidenceManifest exportEvidenceManifest(String workSessionId) {
    return execute(JarvisCall.exportEvidenceManifest(workSessionId)).body();
  }

  public OutcomeReport submitOutcomeReport(OutcomeReport report) {
    return execute(JarvisCall.submitOutcomeReport(report)).body();
  }
}
