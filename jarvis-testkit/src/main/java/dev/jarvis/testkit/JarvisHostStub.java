package dev.jarvis.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.model.ProtocolErrorId;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
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
 * <p>What it does: verifies each request (the protocol headers of its operation class, the body
 * against the spec, path/body and Actor/body id matching) and refuses a bad one with the matching
 * {@code ProtocolError}, recording it in {@link #receivedViolations()}; keeps Workers, Actors,
 * WorkSessions with their event chains (genesis, revision and previous-hash checks, one host-built
 * event per scoped mutation, {@code appendJarvisEvent} checked with {@code EventChain.checkNext})
 * and idempotency records (same key and fingerprint replays the first answer, another fingerprint
 * is {@code duplicate_idempotency_key_mismatch}); exports an EvidenceManifest from a terminal
 * WorkSession. Every answer carries {@code Jarvis-Protocol-Version} and {@code
 * Jarvis-Host-Capabilities}, and with capability {@code cursor-headers} the WorkSession cursor.
 *
 * <p>Tests steer the next call with {@link #refuseNext}, {@link #faultNext} and {@link #delayNext}.
 */
public final class JarvisHostStub
    implements BeforeAllCallback,
        AfterAllCallback,
        BeforeEachCallback,
        AfterEachCallback,
        AutoCloseable {

  /** The capabilities a stub declares unless told otherwise. */
  public static final List<String> DEFAULT_CAPABILITIES = List.of(ProtocolAnswers.CURSOR_HEADERS);

  private final StubHost host;
  private final StubHostTransformer transformer;
  private WireMockServer server;
  private boolean perClass;

  private JarvisHostStub(Clock clock, Supplier<String> ids, List<String> capabilities) {
    this.host = new StubHost(clock, ids, capabilities);
    this.transformer = new StubHostTransformer(host);
  }

  /** A stub on the system UTC clock, with random ids and capability {@code cursor-headers}. */
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
    if (!perClass) {
      stop();
    }
    if (!defects.isEmpty()) {
      throw new AssertionError(
          "the Jarvis stub host built answers the spec refuses: " + String.join("; ", defects));
    }
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
    host.enqueue(new NextCall.Refuse(Objects.requireNonNull(errorId, "errorId")));
    return this;
  }

  /** Answers the next call with a transport fault (or a 503), changing no state. */
  public JarvisHostStub faultNext(Fault fault) {
    host.enqueue(new NextCall.Inject(Objects.requireNonNull(fault, "fault")));
    return this;
  }

  /** Answers the next call normally, but only after {@code delay}. */
  public JarvisHostStub delayNext(Duration delay) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException("a delay cannot be negative: " + delay);
    }
    host.enqueue(new NextCall.Delay(delay));
    return this;
  }

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

  /** Forgets all state, steering and recorded violations. */
  public void reset() {
    host.reset();
  }

  /** Configures a {@link JarvisHostStub}. */
  public static final class Builder {
    private Clock clock = Clock.systemUTC();
    private Supplier<String> ids = () -> UUID.randomUUID().toString();
    private List<String> capabilities = DEFAULT_CAPABILITIES;

    private Builder() {}

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

    public JarvisHostStub build() {
      return new JarvisHostStub(clock, ids, capabilities);
    }
  }
}
