package dev.jarvis.host;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.core.signature.ActorKeys;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Everything a protocol host is configured with. Build with {@link #builder(HostAuth)}; change one
 * setting of a configuration with {@link #toBuilder()}. A final class rather than a record, so that
 * a new setting is a new builder method and never a new constructor a caller must move to.
 */
public final class HostConfig {

  /** The capability of sending {@code Jarvis-WorkSession-Revision}/{@code -Last-Event-Hash}. */
  public static final String CURSOR_HEADERS = JarvisHeaders.CURSOR_HEADERS_CAPABILITY;

  /** The capability of serving a WorkSession's events, a page at a time ({@code EventLog}). */
  public static final String EVENT_LOG = JarvisHeaders.EVENT_LOG_CAPABILITY;

  /**
   * The capability of answering the event-log read live: Server-Sent Events and long polls ({@code
   * EventStream}). Not declared by default: a binding serves it through {@code
   * ProtocolHost.answerHeld}, so the host declares it where its binding does.
   */
  public static final String EVENT_STREAM = JarvisHeaders.EVENT_STREAM_CAPABILITY;

  /** The admin Actor id unless configured otherwise. */
  public static final String DEFAULT_ADMIN_ACTOR_ID = "host-admin";

  private final HostAuth auth;
  private final String adminActorId;
  private final Clock clock;
  private final Supplier<String> traceIds;
  private final Duration timestampTolerance;
  private final Duration idempotencyRetention;
  private final Set<String> capabilities;
  private final HostStores stores;
  private final Optional<JsonNode> defaultPolicy;
  private final ProtocolListener listener;
  private final Optional<CommitHook> commitHook;
  private final AgentActions agentActions;
  private final PrincipalLimits limits;
  private final ActorKeys actorKeys;
  private final WorkSessionGovernance governance;
  private final EventStreamLimits streams;
  private final boolean requestNotifications;

  private HostConfig(Builder b, ProtocolListener listener) {
    this.auth = b.auth;
    this.adminActorId = Objects.requireNonNull(b.adminActorId, "adminActorId");
    this.clock = Objects.requireNonNull(b.clock, "clock");
    this.traceIds = Objects.requireNonNull(b.traceIds, "traceIds");
    this.timestampTolerance = Objects.requireNonNull(b.timestampTolerance, "timestampTolerance");
    this.idempotencyRetention =
        Objects.requireNonNull(b.idempotencyRetention, "idempotencyRetention");
    if (timestampTolerance.isNegative() || idempotencyRetention.isNegative()) {
      throw new IllegalArgumentException("durations must not be negative");
    }
    this.capabilities = Set.copyOf(b.capabilities);
    this.stores = b.stores == null ? HostStores.inMemory() : b.stores;
    this.defaultPolicy = Optional.ofNullable(b.defaultPolicy);
    this.listener = Objects.requireNonNull(listener, "listener");
    this.commitHook = Optional.ofNullable(b.commitHook);
    this.agentActions = b.agentActions;
    this.limits =
        PrincipalLimits.DEFAULTS
            .withOpenWorkSessionsPerActor(b.openWorkSessionsPerActor)
            .withPendingRequestsPerTargetHuman(b.pendingRequestsPerTargetHuman);
    this.actorKeys = b.actorKeys;
    this.governance = b.governance;
    this.streams = b.streams;
    this.requestNotifications = b.requestNotifications;
    if (requestNotifications && stores.notificationOutbox().isEmpty()) {
      throw new IllegalArgumentException(
          "request notifications need a store that keeps an outbox; "
              + stores.getClass().getName()
              + " keeps none");
    }
  }

  /** A builder with defaults: system UTC clock, random trace ids, ±300 s, 24 h, in memory. */
  public static Builder builder(HostAuth auth) {
    return new Builder(auth);
  }

  /** A builder holding every setting of this configuration, to change some of them. */
  public Builder toBuilder() {
    Builder b = new Builder(auth);
    b.adminActorId = adminActorId;
    b.clock = clock;
    b.traceIds = traceIds;
    b.timestampTolerance = timestampTolerance;
    b.idempotencyRetention = idempotencyRetention;
    b.capabilities.clear();
    b.capabilities.addAll(capabilities);
    b.stores = stores;
    b.defaultPolicy = defaultPolicy.orElse(null);
    b.listener = listener;
    b.commitHook = commitHook.orElse(null);
    b.agentActions = agentActions;
    b.openWorkSessionsPerActor = limits.openWorkSessionsPerActor();
    b.pendingRequestsPerTargetHuman = limits.pendingRequestsPerTargetHuman();
    b.actorKeys = actorKeys;
    b.governance = governance;
    b.streams = streams;
    b.requestNotifications = requestNotifications;
    return b;
  }

  /** This configuration told to another listener (the host adds its own to the user's). */
  HostConfig withListener(ProtocolListener other) {
    return new HostConfig(toBuilder(), other);
  }

  /** How the host authenticates each call. */
  public HostAuth auth() {
    return auth;
  }

  /** The Actor id that may register Workers and Actors (see {@code docs/host.md}). */
  public String adminActorId() {
    return adminActorId;
  }

  /** The host's clock: timestamps, Actor validity, expiries, retention. */
  public Clock clock() {
    return clock;
  }

  /** Supplies the {@code trace_id} of each {@code ProtocolError}. */
  public Supplier<String> traceIds() {
    return traceIds;
  }

  /** How far {@code Jarvis-Request-Timestamp} may be from {@link #clock()}. */
  public Duration timestampTolerance() {
    return timestampTolerance;
  }

  /** How long an idempotency record is kept. */
  public Duration idempotencyRetention() {
    return idempotencyRetention;
  }

  /** What the host declares in {@code Jarvis-Host-Capabilities}. */
  public Set<String> capabilities() {
    return capabilities;
  }

  /** Storage. */
  public HostStores stores() {
    return stores;
  }

  /**
   * The Policy applied to a WorkSession whose {@code policy_id} the host does not hold; empty (the
   * default) refuses such a WorkSession with {@code missing_policy}.
   */
  public Optional<JsonNode> defaultPolicy() {
    return defaultPolicy;
  }

  /** Told about every accepted, replayed, refused and failed call. */
  public ProtocolListener listener() {
    return listener;
  }

  /** Runs inside the store's unit of work of each accepted mutation (an outbox). */
  public Optional<CommitHook> commitHook() {
    return commitHook;
  }

  /**
   * Which agent events are actions held to a PolicyDecision, the host's own reserved event types,
   * the AgentWorkers it knows.
   */
  public AgentActions agentActions() {
    return agentActions;
  }

  /** Per-principal limits across WorkSessions (default {@link PrincipalLimits#DEFAULTS}). */
  public PrincipalLimits limits() {
    return limits;
  }

  /**
   * The Actors' public keys every {@code actor_signature} of an appended event is verified with,
   * and the Actors that must sign (default {@link ActorKeys#none()}: a signed event is refused, as
   * its key is unknown, and no Actor must sign).
   */
  public ActorKeys actorKeys() {
    return actorKeys;
  }

  /**
   * Which Policies govern which human Workers besides their owners, and which human Workers each
   * agent Worker may open WorkSessions for (default {@link WorkSessionGovernance#NONE}: a Policy
   * governs its owner alone, and only a human opens a WorkSession for itself).
   */
  public WorkSessionGovernance governance() {
    return governance;
  }

  /**
   * How the {@code event-stream} capability's streams and long polls are held (default {@link
   * EventStreamLimits#DEFAULTS}); used only where the host declares {@value #EVENT_STREAM}.
   */
  public EventStreamLimits streams() {
    return streams;
  }

  /**
   * Whether each accepted Request creation, expiry, Review and Takeover writes a notification to
   * the store's outbox, in the same unit of work (default false; the store must keep an outbox,
   * {@link HostStores#notificationOutbox()}); a {@code
   * dev.jarvis.host.notify.NotificationDispatcher} delivers them (docs/notifications.md).
   */
  public boolean requestNotifications() {
    return requestNotifications;
  }

  @Override
  public String toString() {
    // Settings only: the auth and the stores may hold credentials.
    return "HostConfig[adminActorId="
        + adminActorId
        + ", timestampTolerance="
        + timestampTolerance
        + ", idempotencyRetention="
        + idempotencyRetention
        + ", capabilities="
        + capabilities
        + ", limits="
        + limits
        + ", streams="
        + streams
        + ", requestNotifications="
        + requestNotifications
        + "]";
  }

  /** Builds a {@link HostConfig}. */
  public static final class Builder {
    private final HostAuth auth;
    private String adminActorId = DEFAULT_ADMIN_ACTOR_ID;
    private Clock clock = Clock.systemUTC();
    private Supplier<String> traceIds = () -> "trace:" + UUID.randomUUID();
    private Duration timestampTolerance = RequestTimestamp.DEFAULT_TOLERANCE;
    private Duration idempotencyRetention = Duration.ofHours(24);
    private final Set<String> capabilities =
        new LinkedHashSet<>(List.of(CURSOR_HEADERS, EVENT_LOG));
    private HostStores stores;
    private JsonNode defaultPolicy;
    private ProtocolListener listener = ProtocolListener.NONE;
    private CommitHook commitHook;
    private AgentActions agentActions = AgentActions.DEFAULT;
    private ActorKeys actorKeys = ActorKeys.none();
    private WorkSessionGovernance governance = WorkSessionGovernance.NONE;
    private EventStreamLimits streams = EventStreamLimits.DEFAULTS;
    private boolean requestNotifications;
    private int openWorkSessionsPerActor = PrincipalLimits.DEFAULT_OPEN_WORK_SESSIONS_PER_ACTOR;
    private int pendingRequestsPerTargetHuman =
        PrincipalLimits.DEFAULT_PENDING_REQUESTS_PER_TARGET_HUMAN;

    private Builder(HostAuth auth) {
      this.auth = Objects.requireNonNull(auth, "auth");
    }

    public Builder adminActorId(String id) {
      this.adminActorId = id;
      return this;
    }

    public Builder clock(Clock clock) {
      this.clock = clock;
      return this;
    }

    public Builder traceIds(Supplier<String> traceIds) {
      this.traceIds = traceIds;
      return this;
    }

    public Builder timestampTolerance(Duration tolerance) {
      this.timestampTolerance = tolerance;
      return this;
    }

    public Builder idempotencyRetention(Duration retention) {
      this.idempotencyRetention = retention;
      return this;
    }

    /**
     * Declares exactly these capabilities, replacing the defaults {@value
     * HostConfig#CURSOR_HEADERS} and {@value HostConfig#EVENT_LOG}; a host without {@value
     * HostConfig#EVENT_LOG} answers its read 405, as a host of the spec alone does.
     */
    public Builder capabilities(java.util.Collection<String> names) {
      this.capabilities.clear();
      this.capabilities.addAll(names);
      return this;
    }

    /** Declares another capability besides the defaults. */
    public Builder capability(String name) {
      this.capabilities.add(name);
      return this;
    }

    /**
     * A Policy for WorkSessions naming one the host does not hold. The spec has no operation to
     * create Policies, so a host that does not manage them (a test host, a conformance run) may
     * apply one default instead of refusing with {@code missing_policy}.
     */
    public Builder defaultPolicy(JsonNode policy) {
      this.defaultPolicy = policy;
      return this;
    }

    public Builder stores(HostStores stores) {
      this.stores = stores;
      return this;
    }

    /** Told about every accepted, replayed, refused and failed call (metrics, audit). */
    public Builder listener(ProtocolListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** Runs inside the store's unit of work of each accepted mutation, with its event (outbox). */
    public Builder commitHook(CommitHook hook) {
      this.commitHook = hook;
      return this;
    }

    /**
     * Which agent events are actions, the host's own reserved event types, the AgentWorkers it
     * knows (default {@link AgentActions#DEFAULT}: every agent event is an action).
     */
    public Builder agentActions(AgentActions agentActions) {
      this.agentActions = Objects.requireNonNull(agentActions, "agentActions");
      return this;
    }

    /**
     * How many not yet completed, failed, cancelled or closed WorkSessions one Actor may have
     * created (default {@value PrincipalLimits#DEFAULT_OPEN_WORK_SESSIONS_PER_ACTOR}, at least 1).
     */
    public Builder openWorkSessionsPerActor(int limit) {
      this.openWorkSessionsPerActor = limit;
      return this;
    }

    /**
     * How many open Requests may name one human Worker as their target across all WorkSessions
     * (default {@value PrincipalLimits#DEFAULT_PENDING_REQUESTS_PER_TARGET_HUMAN}, at least 1).
     */
    public Builder pendingRequestsPerTargetHuman(int limit) {
      this.pendingRequestsPerTargetHuman = limit;
      return this;
    }

    /**
     * The Actors' public keys, and which Actors must sign every event they append ({@code serve
     * --actor-keys FILE} reads them with {@link ActorKeys#fromJson(java.nio.file.Path)}). The host
     * verifies every {@code actor_signature} of an appended event with them and refuses a bad one,
     * and an unsigned event of an Actor that must sign, with {@code unauthorized_actor}. Events the
     * host writes itself are not signed. Default: {@link ActorKeys#none()}.
     */
    public Builder actorKeys(ActorKeys actorKeys) {
      this.actorKeys = Objects.requireNonNull(actorKeys);
      return this;
    }

    /**
     * Who governs a WorkSession: which Policies govern which human Workers besides their owners,
     * and which human Workers each agent Worker may open WorkSessions for ({@code serve
     * --assign-policy}, {@code --agent-serves}). Default {@link WorkSessionGovernance#NONE}: a
     * Policy governs the human Worker that owns it, and only that human's own Actor opens its
     * WorkSessions.
     */
    public Builder governance(WorkSessionGovernance governance) {
      this.governance = Objects.requireNonNull(governance, "governance");
      return this;
    }

    /**
     * How the {@value HostConfig#EVENT_STREAM} capability's streams and long polls are held
     * (default {@link EventStreamLimits#DEFAULTS}); declare the capability with {@link
     * #capability(String)}.
     */
    public Builder streams(EventStreamLimits streams) {
      this.streams = Objects.requireNonNull(streams, "streams");
      return this;
    }

    /**
     * Writes a notification to the store's outbox for each accepted Request creation, expiry,
     * Review and Takeover, inside its unit of work (none for a replay or a refusal); deliver them
     * with a {@code dev.jarvis.host.notify.NotificationDispatcher} (docs/notifications.md). The
     * store must keep an outbox: the in-memory store and {@code JdbcHostStores} do.
     */
    public Builder requestNotifications(boolean on) {
      this.requestNotifications = on;
      return this;
    }

    public HostConfig build() {
      return new HostConfig(this, listener);
    }
  }
}
