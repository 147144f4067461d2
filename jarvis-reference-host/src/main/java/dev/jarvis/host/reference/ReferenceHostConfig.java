package dev.jarvis.host.reference;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.requestinbox.RequestInbox;
import dev.jarvis.core.requestread.RequestRead;
import dev.jarvis.host.Credentials;
import dev.jarvis.host.HostAuth;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.HostStores;
import dev.jarvis.host.StoreReadiness;
import dev.jarvis.host.WorkSessionGovernance;
import dev.jarvis.host.notify.NotificationDispatcher;
import dev.jarvis.host.notify.RequestNotifier;
import dev.jarvis.host.undertow.HttpLimits;
import dev.jarvis.samples.SampleRecords;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * How to start a {@link ReferenceHost}. Build with {@link #builder()} (or {@link #demo(String)} for
 * demo mode); change some settings of a configuration with {@link #toBuilder()}. A final class
 * rather than a record, so that a new setting is a new builder method and never a new constructor a
 * caller must move to.
 */
public final class ReferenceHostConfig {

  /**
   * The readiness probe's store check: run in the background every {@code interval}, given {@code
   * timeout} to answer; the probe itself reads its last result and never waits on the store.
   */
  public record Readiness(Duration interval, Duration timeout) {

    public Readiness {
      Objects.requireNonNull(interval, "interval");
      Objects.requireNonNull(timeout, "timeout");
      if (interval.isNegative() || interval.isZero() || timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("readiness interval and timeout must be positive");
      }
    }

    /** Every second, each check given one second: DOWN within about 2 s of an outage. */
    public static Readiness defaults() {
      return new Readiness(StoreReadiness.DEFAULT_INTERVAL, StoreReadiness.DEFAULT_TIMEOUT);
    }
  }

  /** What a host in demo mode says on start-up, so no one mistakes it for a guarded one. */
  public static final String DEMO_MODE_NOTICE =
      "DEMO MODE: one shared --token may act as any Actor and register Workers and Actors;"
          + " use --credentials FILE to bind tokens to Actors";

  /** Who governs a WorkSession in demo mode: the sample Policy governs every human Worker. */
  public static final WorkSessionGovernance DEMO_GOVERNANCE =
      WorkSessionGovernance.NONE.assignPolicyToEveryHuman(SampleRecords.POLICY_ID);

  private final HostAuth auth;
  private final boolean demoMode;
  private final int port;
  private final List<JsonNode> policies;
  private final UnaryOperator<HostConfig.Builder> host;
  private final HttpRuntime runtime;
  private final HttpLimits limits;
  private final Readiness readiness;
  private final boolean console;
  private final Optional<RequestNotifier> notifier;

  private ReferenceHostConfig(Builder b) {
    this.auth = Objects.requireNonNull(b.auth, "auth: give Builder.auth(HostAuth)");
    this.demoMode = b.demoMode;
    this.port = b.port;
    this.policies = List.copyOf(b.policies);
    this.host = b.host;
    this.runtime = b.runtime;
    this.limits = b.limits;
    this.readiness = b.readiness;
    this.console = b.console;
    this.notifier = b.notifier;
  }

  /**
   * A builder with defaults: not demo mode, a free loopback port, no Policies, the host kit's
   * default settings, {@link HttpRuntime#UNDERTOW} with {@link HttpLimits#defaults()}, {@link
   * Readiness#defaults()}, no console, no notifications. {@link Builder#auth(HostAuth)} must be
   * given.
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Demo mode: a host on a free loopback port whose one bearer token may act as any Actor and
   * administer it; no Policies, default settings but one: the sample Policy ({@code
   * SampleRecords.POLICY_ID}) governs every human Worker ({@link #DEMO_GOVERNANCE}), since the one
   * token may act as any human anyway. {@code host(b -> b.governance(...))} replaces it.
   */
  public static Builder demo(String bearerToken) {
    return builder()
        .auth(HostAuth.bearer(bearerToken))
        .demoMode(true)
        .host(b -> b.governance(DEMO_GOVERNANCE));
  }

  /** A builder holding every setting of this configuration, to change some of them. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.auth = auth;
    b.demoMode = demoMode;
    b.port = port;
    b.policies.addAll(policies);
    b.host = host;
    b.runtime = runtime;
    b.limits = limits;
    b.readiness = readiness;
    b.console = console;
    b.notifier = notifier;
    return b;
  }

  /**
   * HostAuth: {@link HostAuth#bearer} (demo mode, one token acting as anyone), {@link Credentials}
   * (tokens bound to Actors) or a host team's own resolver.
   */
  public HostAuth auth() {
    return auth;
  }

  /** Whether {@link #auth()} is the demo mode's single shared token. */
  public boolean demoMode() {
    return demoMode;
  }

  /** The loopback port, 0 for a free one. */
  public int port() {
    return port;
  }

  /** Policy records the host holds (the spec has no operation for Policies). */
  public List<JsonNode> policies() {
    return policies;
  }

  /**
   * Further host settings (clock, trace ids, tolerance, retention, admin Actor, storage), applied
   * to the host kit's builder.
   */
  public UnaryOperator<HostConfig.Builder> host() {
    return host;
  }

  /** The HTTP runtime, {@link HttpRuntime#UNDERTOW} unless chosen. */
  public HttpRuntime runtime() {
    return runtime;
  }

  /** The HTTP limits the Undertow runtime holds (docs/host.md, "Limits"). */
  public HttpLimits limits() {
    return limits;
  }

  /** How often the readiness probe's store check runs, and how long it may take. */
  public Readiness readiness() {
    return readiness;
  }

  /**
   * Whether the review console ({@code jarvis-console}) is served at {@code /console/} (Undertow
   * runtime only).
   */
  public boolean console() {
    return console;
  }

  /**
   * Where notifications that a Request waits go (docs/notifications.md): with one, the host writes
   * them to its store's outbox and a dispatcher delivers them every second.
   */
  public Optional<RequestNotifier> notifier() {
    return notifier;
  }

  /** Builds a {@link ReferenceHostConfig}. */
  public static final class Builder {
    private HostAuth auth;
    private boolean demoMode;
    private int port;
    private final List<JsonNode> policies = new ArrayList<>();
    private UnaryOperator<HostConfig.Builder> host = UnaryOperator.identity();
    private HttpRuntime runtime = HttpRuntime.UNDERTOW;
    private HttpLimits limits = HttpLimits.defaults();
    private Readiness readiness = Readiness.defaults();
    private boolean console;
    private Optional<RequestNotifier> notifier = Optional.empty();

    private Builder() {}

    /**
     * How the host authenticates each call: {@link HostAuth#bearer} (demo mode, one token acting as
     * anyone), {@link Credentials} (tokens bound to Actors, e.g. {@link
     * Credentials#fromJson(Path)}) or a host team's own resolver. Required.
     */
    public Builder auth(HostAuth auth) {
      this.auth = Objects.requireNonNull(auth, "auth");
      return this;
    }

    /**
     * Whether {@link #auth(HostAuth)} is the demo mode's single shared token: the host then says
     * {@link ReferenceHostConfig#DEMO_MODE_NOTICE} on start-up ({@link
     * ReferenceHostConfig#demo(String)} sets it).
     */
    public Builder demoMode(boolean demoMode) {
      this.demoMode = demoMode;
      return this;
    }

    /** The loopback port, 0 (the default) for a free one. */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    /** Holds exactly these Policy records, replacing those given before. */
    public Builder policies(Collection<JsonNode> policies) {
      List<JsonNode> copy = List.copyOf(policies);
      this.policies.clear();
      this.policies.addAll(copy);
      return this;
    }

    /** Holds one more Policy record. */
    public Builder policy(JsonNode policy) {
      this.policies.add(Objects.requireNonNull(policy, "policy"));
      return this;
    }

    /**
     * Further host settings (clock, trace ids, tolerance, retention, admin Actor, storage): applied
     * to the host kit's builder after those given before, so a later setting wins.
     */
    public Builder host(UnaryOperator<HostConfig.Builder> settings) {
      Objects.requireNonNull(settings, "settings");
      UnaryOperator<HostConfig.Builder> before = host;
      this.host = b -> settings.apply(before.apply(b));
      return this;
    }

    /**
     * These stores ({@code StoreSpec.open} in {@code jarvis-store-jdbc} opens the PostgreSQL,
     * embedded or in-memory one), as a host setting. The started host owns them: {@link
     * ReferenceHost#close()} closes them after the last request.
     */
    public Builder stores(HostStores stores) {
      Objects.requireNonNull(stores, "stores");
      return host(b -> b.stores(stores));
    }

    /** The HTTP runtime (default {@link HttpRuntime#UNDERTOW}). */
    public Builder runtime(HttpRuntime runtime) {
      this.runtime = Objects.requireNonNull(runtime, "runtime");
      return this;
    }

    /** The HTTP limits, held by the Undertow runtime (default {@link HttpLimits#defaults()}). */
    public Builder limits(HttpLimits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /** The readiness probe's store check (default {@link Readiness#defaults()}). */
    public Builder readiness(Readiness readiness) {
      this.readiness = Objects.requireNonNull(readiness, "readiness");
      return this;
    }

    /**
     * Serves the review console at {@code /console/} (or not, the default): the page, and its API
     * acting as the signed-in human against this host (docs/console.md). Undertow runtime only.
     */
    public Builder console(boolean console) {
      this.console = console;
      return this;
    }

    /**
     * Sends a notification for each accepted Request creation, expiry, Review and Takeover through
     * {@code notifier} (a {@code WebhookNotifier}, say): the host writes each to its store's outbox
     * in the event's unit of work, and a {@code NotificationDispatcher} of this instance delivers
     * the due ones every {@link NotificationDispatcher#DEFAULT_INTERVAL}, at least once, with the
     * default {@code DeliveryPolicy}.
     */
    public Builder notifier(RequestNotifier notifier) {
      this.notifier = Optional.of(notifier);
      return this;
    }

    /**
     * The configuration.
     *
     * @throws NullPointerException if no {@link #auth(HostAuth)} was given
     */
    public ReferenceHostConfig build() {
      return new ReferenceHostConfig(this);
    }
  }

  /**
   * The host kit's configuration: {@code event-stream} and {@code request-inbox} are declared on
   * both runtimes, and {@code request-read} on Undertow, before the caller's settings (which may
   * declare other capabilities instead); the JAX-RS binding has no resource for the Request reads
   * yet, so Jersey does not declare {@code request-read}.
   */
  HostConfig hostConfig() {
    HostConfig.Builder builder =
        HostConfig.builder(auth)
            .capability(HostConfig.EVENT_STREAM)
            .capability(RequestInbox.CAPABILITY);
    if (runtime == HttpRuntime.UNDERTOW) {
      builder.capability(RequestRead.CAPABILITY);
    }
    return host.apply(builder).requestNotifications(notifier.isPresent()).build();
  }

  static InetAddress loopback() {
    return InetAddress.getLoopbackAddress();
  }
}
