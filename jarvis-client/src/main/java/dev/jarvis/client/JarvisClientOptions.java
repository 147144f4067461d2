package dev.jarvis.client;

import dev.jarvis.client.internal.BuiltInPipeline;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.core.signature.ActorKeys;
import dev.jarvis.core.signature.SigningKey;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Everything a {@link JarvisClient} is configured with; immutable, built with {@link #builder()}.
 */
public final class JarvisClientOptions {

  /**
   * The default {@link Builder#maxRequestBodyBytes(long)}: 1 MiB, the request body limit of the
   * reference host and the host kit's bindings.
   */
  public static final long DEFAULT_MAX_REQUEST_BODY_BYTES = 1024 * 1024;

  private final URI baseUri;
  private final ActorAuth hostAuth;
  private final String actorId;
  private final Clock clock;
  private final Supplier<String> idempotencyKeys;
  private final RetryPolicy retryPolicy;
  private final Sleeper sleeper;
  private final DoubleSupplier jitter;
  private final Duration connectTimeout;
  private final Duration attemptTimeout;
  private final Duration totalTimeout;
  private final Duration streamReadTimeout;
  private final Optional<Executor> executor;
  private final Optional<String> userAgentSuffix;
  private final List<JarvisPolicy> perCallPolicies;
  private final List<JarvisPolicy> perAttemptPolicies;
  private final long maxRequestBodyBytes;
  private final Map<String, SigningKey> signingKeys;
  private final Optional<ActorKeys> actorKeys;

  private JarvisClientOptions(Builder b) {
    this.baseUri = Objects.requireNonNull(b.baseUri, "baseUri is required");
    this.actorId = Objects.requireNonNull(b.actorId, "actorId is required");
    this.hostAuth = b.hostAuth;
    this.clock = b.clock;
    this.idempotencyKeys = b.idempotencyKeys;
    this.retryPolicy = b.retryPolicy;
    this.sleeper = b.sleeper;
    this.jitter = b.jitter;
    this.connectTimeout = b.connectTimeout;
    this.attemptTimeout = b.attemptTimeout;
    this.totalTimeout = b.totalTimeout;
    this.streamReadTimeout = b.streamReadTimeout;
    this.executor = b.executor;
    this.userAgentSuffix = b.userAgentSuffix;
    this.perCallPolicies = List.copyOf(b.perCallPolicies);
    this.perAttemptPolicies = List.copyOf(b.perAttemptPolicies);
    this.maxRequestBodyBytes = b.maxRequestBodyBytes;
    Map<String, SigningKey> keys = new LinkedHashMap<>(b.signingKeys);
    b.ownSigningKey.ifPresent(key -> keys.put(actorId, key));
    this.signingKeys = Map.copyOf(keys);
    this.actorKeys = b.actorKeys;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from these options. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.baseUri = baseUri;
    b.hostAuth = hostAuth;
    b.actorId = actorId;
    b.clock = clock;
    b.idempotencyKeys = idempotencyKeys;
    b.retryPolicy = retryPolicy;
    b.sleeper = sleeper;
    b.jitter = jitter;
    b.connectTimeout = connectTimeout;
    b.attemptTimeout = attemptTimeout;
    b.totalTimeout = totalTimeout;
    b.streamReadTimeout = streamReadTimeout;
    b.executor = executor;
    b.userAgentSuffix = userAgentSuffix;
    b.perCallPolicies.addAll(perCallPolicies);
    b.perAttemptPolicies.addAll(perAttemptPolicies);
    b.maxRequestBodyBytes = maxRequestBodyBytes;
    b.signingKeys.putAll(signingKeys);
    b.actorKeys = actorKeys;
    return b;
  }

  public URI baseUri() {
    return baseUri;
  }

  /** Where each attempt's {@code Authorization} comes from, per acting Actor. */
  public ActorAuth actorAuth() {
    return hostAuth;
  }

  /**
   * The largest request body, in bytes, the client sends; a larger one is refused locally before
   * anything is sent.
   */
  public long maxRequestBodyBytes() {
    return maxRequestBodyBytes;
  }

  public String actorId() {
    return actorId;
  }

  public Clock clock() {
    return clock;
  }

  public Supplier<String> idempotencyKeys() {
    return idempotencyKeys;
  }

  public RetryPolicy retryPolicy() {
    return retryPolicy;
  }

  public Sleeper sleeper() {
    return sleeper;
  }

  public DoubleSupplier jitter() {
    return jitter;
  }

  public Duration connectTimeout() {
    return connectTimeout;
  }

  public Duration attemptTimeout() {
    return attemptTimeout;
  }

  public Duration totalTimeout() {
    return totalTimeout;
  }

  /**
   * How long an open {@code event-stream} may stay silent (no line, heartbeat included) before the
   * client counts it as lost and reconnects ({@link JarvisClient#subscribe}).
   */
  public Duration streamReadTimeout() {
    return streamReadTimeout;
  }

  /** The executor asynchronous calls run on; empty: one the client owns and closes. */
  public Optional<Executor> executor() {
    return executor;
  }

  public Optional<String> userAgentSuffix() {
    return userAgentSuffix;
  }

  /** Your policies that run once per call, outermost first, before the built-in ones. */
  public List<JarvisPolicy> perCallPolicies() {
    return perCallPolicies;
  }

  /** Your policies that run once per attempt, after HostAuth and before logging and transport. */
  public List<JarvisPolicy> perAttemptPolicies() {
    return perAttemptPolicies;
  }

  /**
   * The key the client signs the events of {@code actorId} with ({@code actor_signature}, {@code
   * signing_key_ref}); empty: that Actor's events go unsigned.
   */
  public Optional<SigningKey> signingKey(String actorId) {
    return Optional.ofNullable(signingKeys.get(actorId));
  }

  /**
   * The Actors' public keys {@link JarvisClient#audit} verifies signed events with; empty: an audit
   * skips its signature check.
   */
  public Optional<ActorKeys> actorKeys() {
    return actorKeys;
  }

  /** Builds {@link JarvisClientOptions}. Only {@code baseUri} and {@code actorId} are required. */
  public static final class Builder {
    private URI baseUri;
    private ActorAuth hostAuth = ActorAuth.of(Optional::empty);
    private String actorId;
    private Clock clock = Clock.systemUTC();
    private Supplier<String> idempotencyKeys = () -> UUID.randomUUID().toString();
    private RetryPolicy retryPolicy = RetryPolicy.DEFAULT;
    private Sleeper sleeper = Sleeper.SYSTEM;
    private DoubleSupplier jitter = () -> ThreadLocalRandom.current().nextDouble();
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration attemptTimeout = Duration.ofSeconds(30);
    private Duration totalTimeout = Duration.ofMinutes(2);
    private Duration streamReadTimeout = Duration.ofSeconds(45);
    private Optional<Executor> executor = Optional.empty();
    private Optional<String> userAgentSuffix = Optional.empty();
    private final List<JarvisPolicy> perCallPolicies = new ArrayList<>();
    private final List<JarvisPolicy> perAttemptPolicies = new ArrayList<>();
    private long maxRequestBodyBytes = DEFAULT_MAX_REQUEST_BODY_BYTES;
    private final Map<String, SigningKey> signingKeys = new LinkedHashMap<>();
    private Optional<SigningKey> ownSigningKey = Optional.empty();
    private Optional<ActorKeys> actorKeys = Optional.empty();

    private Builder() {}

    /** The host's base URI, e.g. {@code https://jarvis.example.com/v0}. Required; no default. */
    public Builder baseUri(URI baseUri) {
      this.baseUri = baseUri;
      return this;
    }

    /** Same as {@link #baseUri(URI)}. */
    public Builder baseUri(String baseUri) {
      return baseUri(URI.create(baseUri));
    }

    /**
     * The HostAuth credential: the whole {@code Authorization} header value, asked for on every
     * attempt so that a refreshed token is picked up. Default: none (no {@code Authorization}
     * header; a host will refuse).
     */
    public Builder hostAuth(Supplier<Optional<String>> hostAuth) {
      return hostAuth(ActorAuth.of(hostAuth));
    }

    /** A fixed {@code Authorization} header value, e.g. {@code "Bearer abc"}, for every Actor. */
    public Builder hostAuth(String authorization) {
      return hostAuth(ActorAuth.fixed(authorization));
    }

    /**
     * HostAuth per acting Actor: asked on every attempt with the attempt's {@code Jarvis-Actor-Id},
     * so one client and its {@link JarvisClient#as(String)} views, sharing one cursor store, hold a
     * separate credential per Actor ({@link ActorAuth#perActor(Map)} for fixed tokens; a stage for
     * a token fetched without holding a thread). Replaces any credential set before. Default: none.
     */
    public Builder hostAuth(ActorAuth hostAuth) {
      this.hostAuth = Objects.requireNonNull(hostAuth);
      return this;
    }

    /**
     * Same as {@link #hostAuth(ActorAuth)} with {@link ActorAuth#perActor(Function)}: {@code
     * actorId -> Optional.of("Bearer " + tokens.get(actorId))}.
     */
    public Builder hostAuthPerActor(Function<String, Optional<String>> authorizationByActor) {
      return hostAuth(ActorAuth.perActor(authorizationByActor));
    }

    /**
     * The largest request body the client sends, in bytes of its JSON encoding. A larger body is
     * refused locally ({@code unknown_state} at {@code /}, naming the limit) before anything is
     * sent, not even a WorkSession re-read. Default: {@value
     * JarvisClientOptions#DEFAULT_MAX_REQUEST_BODY_BYTES} (1 MiB), the limit of the reference host
     * and the host kit's bindings; raise it only for a host that accepts more.
     */
    public Builder maxRequestBodyBytes(long maxRequestBodyBytes) {
      if (maxRequestBodyBytes <= 0) {
        throw new IllegalArgumentException("maxRequestBodyBytes must be positive");
      }
      this.maxRequestBodyBytes = maxRequestBodyBytes;
      return this;
    }

    /**
     * The acting Actor sent as {@code Jarvis-Actor-Id}; overridable per call with {@link
     * JarvisClient#as(String)} or {@link JarvisCall#as(String)}. Required; no default.
     */
    public Builder actorId(String actorId) {
      this.actorId = actorId;
      return this;
    }

    /**
     * Where {@code Jarvis-Request-Timestamp} and deadlines come from. Default: UTC system clock.
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock);
      return this;
    }

    /**
     * Supplies one {@code Jarvis-Idempotency-Key} per logical call (reused by all its attempts),
     * and ids the client fills in (event ids). Default: random UUIDs.
     */
    public Builder idempotencyKeys(Supplier<String> idempotencyKeys) {
      this.idempotencyKeys = Objects.requireNonNull(idempotencyKeys);
      return this;
    }

    /** When to retry. Default: {@link RetryPolicy#DEFAULT} (4 attempts, 200 ms doubling). */
    public Builder retryPolicy(RetryPolicy retryPolicy) {
      this.retryPolicy = Objects.requireNonNull(retryPolicy);
      return this;
    }

    /** How to wait between attempts. Default: {@link Sleeper#SYSTEM}. */
    public Builder sleeper(Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper);
      return this;
    }

    /** Source of jitter, values in [0, 1). Default: {@link ThreadLocalRandom}. */
    public Builder jitter(DoubleSupplier jitter) {
      this.jitter = Objects.requireNonNull(jitter);
      return this;
    }

    /** TCP connect timeout. Default: 10 s. */
    public Builder connectTimeout(Duration connectTimeout) {
      this.connectTimeout = Objects.requireNonNull(connectTimeout);
      return this;
    }

    /** Timeout of one attempt, until the response is read. Default: 30 s. */
    public Builder attemptTimeout(Duration attemptTimeout) {
      this.attemptTimeout = Objects.requireNonNull(attemptTimeout);
      return this;
    }

    /** Bound on a whole call, retries and waits included. Default: 2 min. */
    public Builder totalTimeout(Duration totalTimeout) {
      this.totalTimeout = Objects.requireNonNull(totalTimeout);
      return this;
    }

    /**
     * How long an open {@code event-stream} ({@link JarvisClient#subscribe}) may stay silent, no
     * line arriving, heartbeats included, before the client drops the connection and reconnects
     * after the last event it verified. A host sends a heartbeat every 15 s by default, so the
     * default of 45 s tolerates two lost ones. Separate from the other timeouts: {@link
     * #attemptTimeout} bounds only the wait for a stream's response headers (the JDK's request
     * timeout does not bound a body read), and {@link #totalTimeout} a stream's opening, retries
     * included. Default: 45 s.
     */
    public Builder streamReadTimeout(Duration streamReadTimeout) {
      Objects.requireNonNull(streamReadTimeout);
      if (streamReadTimeout.isNegative() || streamReadTimeout.isZero()) {
        throw new IllegalArgumentException("streamReadTimeout must be > 0");
      }
      this.streamReadTimeout = streamReadTimeout;
      return this;
    }

    /**
     * Runs the steps of asynchronous calls; none of them blocks it (I/O and retry waits hold no
     * thread), so a small pool will do. The client does not shut it down. Default: a pool of daemon
     * threads named {@code jarvis-client-…} that the client owns and {@link JarvisClient#close()}
     * shuts down; never {@code ForkJoinPool.commonPool()}.
     */
    public Builder executor(Executor executor) {
      this.executor = Optional.of(executor);
      return this;
    }

    /**
     * Adds a policy that runs once per logical call, around all its attempts (and around the
     * WorkSession re-read the pipeline may run for a mutation, which it sees as part of the call):
     * the place for metrics, tracing spans, audit. Policies added here run first, in the order
     * added, and see failures as {@link JarvisFailure}s. Default: none.
     *
     * @throws IllegalArgumentException if the policy's {@link JarvisPolicy#name() name} is that of
     *     a built-in link ({@code retry}, {@code logging}, ...: {@code client.pipeline()} lists
     *     them), which would read as that link
     */
    public Builder addPerCallPolicy(JarvisPolicy policy) {
      perCallPolicies.add(BuiltInPipeline.requireOwnName(Objects.requireNonNull(policy)));
      return this;
    }

    /**
     * Adds a policy that runs once per attempt, after the timestamp and HostAuth are set and before
     * the attempt is logged and sent: the place for a per-attempt header or a fault injector. It
     * sees each attempt's raw answer (a 503 before the retry) or its {@link java.io.IOException}.
     * Policies added here run in the order added. Default: none.
     *
     * @throws IllegalArgumentException if the policy's {@link JarvisPolicy#name() name} is that of
     *     a built-in link, as for {@link #addPerCallPolicy}
     */
    public Builder addPerAttemptPolicy(JarvisPolicy policy) {
      perAttemptPolicies.add(BuiltInPipeline.requireOwnName(Objects.requireNonNull(policy)));
      return this;
    }

    /**
     * Appended to the {@code User-Agent} ({@code jarvis-java-sdk/VERSION SUFFIX}, VERSION the SDK's
     * own). Default: none.
     */
    public Builder userAgentSuffix(String suffix) {
      this.userAgentSuffix = Optional.of(suffix);
      return this;
    }

    /**
     * Signs every event the options' own Actor ({@link #actorId(String)}) appends: {@code
     * actor_signature} is the key's Ed25519 signature of the event's {@code event_hash}, {@code
     * signing_key_ref} its key id ({@code docs/protocol-decisions.md}, "Actor-signed events"). The
     * client builds the hash, so a signature in the caller's draft is dropped, as it always was.
     * Default: no key, events unsigned.
     */
    public Builder signingKey(SigningKey key) {
      this.ownSigningKey = Optional.of(Objects.requireNonNull(key));
      return this;
    }

    /**
     * Signs every event {@code actorId} appends, through this client or any {@link
     * JarvisClient#as(String)} view of it, with {@code key}: one key per Actor a client acts for.
     */
    public Builder signingKey(String actorId, SigningKey key) {
      signingKeys.put(Objects.requireNonNull(actorId), Objects.requireNonNull(key));
      return this;
    }

    /**
     * The Actors' public keys an {@link JarvisClient#audit audit} verifies each signed event with
     * (verified, unsigned, bad signature, unknown key, another Actor's key, revoked). Default:
     * none; an audit then skips its signature check.
     */
    public Builder actorKeys(ActorKeys actorKeys) {
      this.actorKeys = Optional.of(actorKeys);
      return this;
    }

    public JarvisClientOptions build() {
      return new JarvisClientOptions(this);
    }
  }
}
