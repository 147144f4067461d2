package dev.jarvis.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.requestinbox.RequestInbox;
import dev.jarvis.core.requestread.RequestRead;
import dev.jarvis.core.signature.ActorKeys;
import dev.jarvis.host.AgentActions;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.WorkSessionGovernance;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.samples.SampleRecords;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A Jarvis host for tests: WireMock on a dynamic loopback port, answering every spec operation like
 * a host that keeps state.
 *
 * <pre>{@code
 * @RegisterExtension JarvisHostStub host = JarvisHostStub.create();
 * }</pre>
 *
 * <p>Registered on an instance field it starts before each test and stops after it; on a static
 * field it starts once for the class and its state is reset before each test. After each test it
 * fails the test if it ever built an answer the spec refuses.
 *
 * <p>Every protocol decision is taken by the host kit's engine ({@code
 * dev.jarvis.host.ProtocolHost}, in memory), exactly as on a real host: the request guard, Actor
 * authority, idempotency, the event chain, the state rules and the exports. So the stub and a real
 * host cannot disagree. WireMock is only the transport. What the stub adds for tests: the Policy
 * {@link SampleRecords#policy()} (and any given to the builder), any caller accepted by HostAuth,
 * Workers and Actors registered by {@link #ADMIN_ACTOR_ID}; every request the guard refused
 * recorded in {@link #receivedViolations()} (and, unless turned off, failing the test); every
 * answer checked against the spec first.
 *
 * <p>Tests steer coming calls with {@link #refuseNext}, {@link #faultNext}, {@link #delayNext},
 * each optionally aimed at one operation, or {@link #onNext(String, String)} for one operation in
 * one WorkSession. Test methods may take the stub as a parameter; {@link JarvisHostStubTest} sets
 * one up with an annotation.
 */
public final class JarvisHostStub
    implements BeforeAllCallback,
        AfterAllCallback,
        BeforeEachCallback,
        AfterEachCallback,
        ParameterResolver,
        AutoCloseable {

  /**
   * The capabilities a stub declares unless told otherwise: {@code cursor-headers}, {@code
   * event-log}, {@code request-read} and {@code event-stream} (what {@code
   * JarvisClient.awaitResolution} reads and waits on; the stub sends a stream one batch per
   * response), and {@code request-inbox} (a human's Requests, {@code JarvisClient.inbox}).
   */
  public static final List<String> DEFAULT_CAPABILITIES =
      List.of(
          JarvisHeaders.CURSOR_HEADERS_CAPABILITY,
          JarvisHeaders.EVENT_LOG_CAPABILITY,
          RequestRead.CAPABILITY,
          JarvisHeaders.EVENT_STREAM_CAPABILITY,
          RequestInbox.CAPABILITY);

  /** The Actor that registers Workers and Actors, as on a real host (the host kit's default). */
  public static final String ADMIN_ACTOR_ID = HostConfig.DEFAULT_ADMIN_ACTOR_ID;

  private final StubHost host;
  private final StubHostTransformer transformer;
  private final boolean failOnReceivedViolations;
  private WireMockServer server;
  private boolean perClass;

  private JarvisHostStub(StubHost.StubSettings settings, boolean failOnReceivedViolations) {
    this.host = new StubHost(settings);
    this.transformer = new StubHostTransformer(host);
    this.failOnReceivedViolations = failOnReceivedViolations;
  }

  /** A stub on the system UTC clock, with random ids and the {@link #DEFAULT_CAPABILITIES}. */
  public static JarvisHostStub create() {
    return builder().build();
  }

  /** A builder to fix the clock, the id supplier and the declared capabilities. */
  public static Builder builder() {
    return new Builder();
  }

  // --- lifecycle ------------------------------------------------------------------------------

  /** Starts WireMock on a free loopback port; does nothing if running. */
  public synchronized JarvisHostStub start() {
    if (server == null) {
      WireMockServer started =
          new WireMockServer(
              WireMockConfiguration.options()
                  .dynamicPort()
                  .bindAddress("127.0.0.1")
                  .disableRequestJournal()
                  .extensions(transformer));
      started.start();
      started.stubFor(any(anyUrl()).willReturn(aResponse()));
      server = started;
    }
    return this;
  }

  /** Stops WireMock; does nothing if stopped. State is kept until {@link #reset()}. */
  public synchronized void stop() {
    if (server != null) {
      server.stop();
      server = null;
    }
  }

  @Override
  public void close() {
    stop();
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    perClass = true;
    start();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    stop();
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (perClass) {
      reset();
    }
    start();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    List<String> defects = responseDefects();
    List<ProtocolViolation> violations = receivedViolations();
    if (!perClass) {
      stop();
    }
    if (!defects.isEmpty()) {
      throw new AssertionError(
          "the Jarvis stub host built answers the spec refuses: " + String.join("; ", defects));
    }
    if (failOnReceivedViolations && !violations.isEmpty()) {
      throw new AssertionError(
          "the code under test sent requests a Jarvis host refuses (turn this check off with"
              + " JarvisHostStub.builder().failOnReceivedViolations(false) when that is the"
              + " point of the test): "
              + violations);
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == JarvisHostStub.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return this;
  }

  // --- where it is ----------------------------------------------------------------------------

  /** The base URL, e.g. {@code http://127.0.0.1:54321}, without a trailing slash. */
  public String baseUrl() {
    return "http://127.0.0.1:" + port();
  }

  /** {@link #baseUrl()} as a URI. */
  public URI baseUri() {
    return URI.create(baseUrl());
  }

  /** The port WireMock listens on. */
  public synchronized int port() {
    if (server == null) {
      throw new IllegalStateException("the stub host is not running");
    }
    return server.port();
  }

  // --- steering the next call -----------------------------------------------------------------

  /**
   * Refuses the next call with HTTP 400 and a ProtocolError of this {@code error_id}, changing no
   * state. The request is still verified.
   */
  public JarvisHostStub refuseNext(ProtocolErrorId errorId) {
    return script(new NextCall.Refuse(Objects.requireNonNull(errorId, "errorId")), ANY);
  }

  /**
   * Refuses the next call of this operation (e.g. {@code "recordPolicyDecision"}) with HTTP 400 and
   * a ProtocolError of this {@code error_id}; other calls, such as the client's own re-reads, pass.
   */
  public JarvisHostStub refuseNext(String operationId, ProtocolErrorId errorId) {
    return script(
        new NextCall.Refuse(Objects.requireNonNull(errorId, "errorId")), operation(operationId));
  }

  /** Answers the next call with a transport fault (or a 503), changing no state. */
  public JarvisHostStub faultNext(Fault fault) {
    return script(new NextCall.Inject(Objects.requireNonNull(fault, "fault")), ANY);
  }

  /** Answers the next call of this operation with a transport fault, changing no state. */
  public JarvisHostStub faultNext(String operationId, Fault fault) {
    return script(
        new NextCall.Inject(Objects.requireNonNull(fault, "fault")), operation(operationId));
  }

  /** Answers the next call normally, but only after {@code delay}. */
  public JarvisHostStub delayNext(Duration delay) {
    return script(delay(delay), ANY);
  }

  /** Answers the next call of this operation normally, but only after {@code delay}. */
  public JarvisHostStub delayNext(String operationId, Duration delay) {
    return script(delay(delay), operation(operationId));
  }

  /**
   * Scripts the next call of this operation in this WorkSession: {@code
   * stub.onNext("appendJarvisEvent", "ws-1").refuse(ProtocolErrorId.STALE_WORK_SESSION_REVISION)}.
   */
  public NextCallTarget onNext(String operationId, String workSessionId) {
    ProtocolOperations.byId(operationId);
    return new NextCallTarget(
        this,
        new ScriptedCall.CallTarget(
            Optional.of(operationId), Optional.of(Objects.requireNonNull(workSessionId))));
  }

  JarvisHostStub script(NextCall action, ScriptedCall.CallTarget target) {
    host.enqueue(new ScriptedCall(action, target));
    return this;
  }

  static NextCall delay(Duration delay) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException("a delay cannot be negative: " + delay);
    }
    return new NextCall.Delay(delay);
  }

  private static ScriptedCall.CallTarget operation(String operationId) {
    // Fails fast on a typo: a script that can never apply would silently do nothing.
    ProtocolOperations.byId(operationId);
    return new ScriptedCall.CallTarget(Optional.of(operationId), Optional.empty());
  }

  private static final ScriptedCall.CallTarget ANY = ScriptedCall.CallTarget.ANY;

  // --- what happened --------------------------------------------------------------------------

  /**
   * Every protocol rule the requests received so far broke, in arrival order. A well-behaved client
   * leaves it empty.
   */
  public List<ProtocolViolation> receivedViolations() {
    return host.receivedViolations();
  }

  /** Answers the stub built that the spec refuses (served as HTTP 500); empty unless misused. */
  public List<String> responseDefects() {
    return host.responseDefects();
  }

  /** The WorkSession record as the host holds it now. */
  public Optional<ObjectNode> workSession(String id) {
    return host.workSession(id);
  }

  /** The WorkSession's events in chain order; empty for an unknown WorkSession. */
  public List<ObjectNode> events(String workSessionId) {
    return host.events(workSessionId);
  }

  /** A registered Worker. */
  public Optional<ObjectNode> worker(String id) {
    return host.worker(id);
  }

  /** A registered Actor. */
  public Optional<ObjectNode> actor(String id) {
    return host.actor(id);
  }

  /**
   * Holds this Worker as if {@link #ADMIN_ACTOR_ID} had registered it: set-up for tests whose
   * subject is not registration.
   *
   * @throws IllegalArgumentException if it is not a valid {@code Worker}
   */
  public JarvisHostStub givenWorker(JsonNode worker) {
    host.seed(RecordKind.WORKER, "Worker", worker);
    return this;
  }

  /**
   * Holds this Actor as if {@link #ADMIN_ACTOR_ID} had registered it.
   *
   * @throws IllegalArgumentException if it is not a valid {@code Actor}
   */
  public JarvisHostStub givenActor(JsonNode actor) {
    host.seed(RecordKind.ACTOR, "Actor", actor);
    return this;
  }

  /**
   * A human Actor of this host, to answer Requests for the test as that human would: {@code
   * stub.human("actor-human-1").approve("ws-1", "req-1")}, {@code deny}, {@code narrow}, {@code
   * letExpire}. Each is a real Review by that Actor through the stub's engine, so code awaiting the
   * answer sees what a real host would show it.
   */
  public StubHuman human(String humanActorId) {
    return new StubHuman(host, humanActorId);
  }

  /** The clock the stub runs on (a {@link StubClock} where the test gave one). */
  public Clock clock() {
    return host.clock();
  }

  /** Forgets all state, steering and recorded violations. */
  public void reset() {
    host.reset();
  }

  /**
   * The stub's governance unless configured: {@link SampleRecords#policy()}, the one Policy the
   * stub holds unless told otherwise, governs every human Worker, as on a host with one Policy for
   * all; no agent Worker serves anyone.
   */
  public static final WorkSessionGovernance DEFAULT_GOVERNANCE =
      WorkSessionGovernance.NONE.assignPolicyToEveryHuman(SampleRecords.POLICY_ID);

  /** Configures a {@link JarvisHostStub}. */
  public static final class Builder {
    private Clock clock = Clock.systemUTC();
    private Supplier<String> ids = () -> UUID.randomUUID().toString();
    private List<String> capabilities = DEFAULT_CAPABILITIES;
    private final List<JsonNode> policies = new ArrayList<>(List.of(SampleRecords.policy()));
    private boolean failOnReceivedViolations = true;
    private AgentActions agentActions = AgentActions.DEFAULT;
    private ActorKeys actorKeys = ActorKeys.none();
    private WorkSessionGovernance governance = DEFAULT_GOVERNANCE;

    private Builder() {}

    /**
     * A Policy the host holds besides {@link SampleRecords#policy()} (the spec has no operation for
     * Policies; a host holds them as configuration).
     */
    public Builder policy(JsonNode policy) {
      policies.add(Objects.requireNonNull(policy, "policy"));
      return this;
    }

    /**
     * Whether a test fails when its requests broke a protocol rule the host's guard checks
     * (default: true). Turn it off in tests that send bad requests on purpose.
     */
    public Builder failOnReceivedViolations(boolean fail) {
      this.failOnReceivedViolations = fail;
      return this;
    }

    /** The host's clock: request timestamps are checked against it, records stamped with it. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Where the host's own ids (events, manifests, trace ids) come from. */
    public Builder ids(Supplier<String> ids) {
      this.ids = Objects.requireNonNull(ids, "ids");
      return this;
    }

    /** The capabilities declared in {@code Jarvis-Host-Capabilities}; none sends no header. */
    public Builder capabilities(String... capabilities) {
      this.capabilities = List.of(capabilities);
      return this;
    }

    /**
     * Which agent events are actions, which event types only the host writes, which AgentWorkers it
     * knows, as a real host is configured with them (default: every agent event is an action, held
     * to a PolicyDecision).
     */
    public Builder agentActions(AgentActions agentActions) {
      this.agentActions = Objects.requireNonNull(agentActions, "agentActions");
      return this;
    }

    /**
     * The Actors' public keys the stub verifies signed events with, and which Actors must sign, as
     * a real host is configured with them ({@code HostConfig.Builder.actorKeys}; default none: a
     * signed event is refused, its key unknown).
     */
    public Builder actorKeys(ActorKeys actorKeys) {
      this.actorKeys = Objects.requireNonNull(actorKeys, "actorKeys");
      return this;
    }

    /**
     * Who governs a WorkSession, as a real host's operator configures it ({@code
     * HostConfig.Builder.governance}): which Policies govern which human Workers besides their
     * owners, and which human Workers each agent Worker may open WorkSessions for. Default {@link
     * #DEFAULT_GOVERNANCE}: the sample Policy governs every human Worker, and no agent opens a
     * WorkSession for anyone (a human opens its own); a test of an agent that opens WorkSessions
     * says whom it serves, {@code
     * governance(JarvisHostStub.DEFAULT_GOVERNANCE.agentServes(agentWorker, humanWorker))}.
     */
    public Builder governance(WorkSessionGovernance governance) {
      this.governance = Objects.requireNonNull(governance, "governance");
      return this;
    }

    public JarvisHostStub build() {
      return new JarvisHostStub(
          new StubHost.StubSettings(
              clock,
              ids,
              capabilities,
              List.copyOf(policies),
              ADMIN_ACTOR_ID,
              agentActions,
              actorKeys,
              governance),
          failOnReceivedViolations);
    }
  }
}
