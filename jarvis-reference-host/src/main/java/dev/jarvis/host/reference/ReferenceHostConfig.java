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
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * How to start a {@link ReferenceHost}.
 *
 * @param auth HostAuth: {@link HostAuth#bearer} (demo mode, one token acting as anyone), {@link
 *     Credentials} (tokens bound to Actors) or a host team's own resolver
 * @param demoMode whether {@code auth} is the demo mode's single shared token
 * @param port the loopback port, 0 for a free one
 * @param policies Policy records the host holds (the spec has no operation for Policies)
 * @param host further host settings (clock, trace ids, tolerance, retention, admin Actor, storage),
 *     applied to the builder
 * @param runtime the HTTP runtime, {@link HttpRuntime#UNDERTOW} unless chosen
 * @param limits the HTTP limits the Undertow runtime holds (docs/host.md, "Limits")
 * @param readiness how often the readiness probe's store check runs, and how long it may take
 * @param console whether the review console ({@code jarvis-console}) is served at {@code /console/}
 *     (Undertow runtime only)
 * @param notifier where notifications that a Request waits go (docs/notifications.md): with one,
 *     the host writes them to its store's outbox and a dispatcher delivers them every second
 */
public record ReferenceHostConfig(
    HostAuth auth,
    boolean demoMode,
    int port,
    List<JsonNode> policies,
    UnaryOperator<HostConfig.Builder> host,
    HttpRuntime runtime,
    HttpLimits limits,
    Readiness readiness,
    boolean console,
    Optional<RequestNotifier> notifier) {

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

  public ReferenceHostConfig {
    Objects.requireNonNull(auth, "auth");
    policies = List.copyOf(policies);
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(runtime, "runtime");
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(readiness, "readiness");
    Objects.requireNonNull(notifier, "notifier");
  }

  /** A configuration without the console and without notifications. */
  public ReferenceHostConfig(
      HostAuth auth,
      boolean demoMode,
      int port,
      List<JsonNode> policies,
      UnaryOperator<HostConfig.Builder> host,
      HttpRuntime runtime,
      HttpLimits limits,
      Readiness readiness) {
    this(auth, demoMode, port, policies, host, runtime, limits, readiness, false, Optional.empty());
  }

  /** A configuration with the default {@link Readiness}. */
  public ReferenceHostConfig(
      HostAuth auth,
      boolean demoMode,
      int port,
      List<JsonNode> policies,
      UnaryOperator<HostConfig.Builder> host,
      HttpRuntime runtime,
      HttpLimits limits) {
    this(auth, demoMode, port, policies, host, runtime, limits, Readiness.defaults());
  }

  /**
   * Demo mode: a host on a free loopback port whose one bearer token may act as any Actor and
   * administer it; no Policies, default settings but one: the sample Policy ({@code
   * SampleRecords.POLICY_ID}) governs every human Worker ({@link #DEMO_GOVERNANCE}), since the one
   * token may act as any human anyway. {@code withHost(b -> b.governance(...))} replaces it.
   */
  public static ReferenceHostConfig of(String bearerToken) {
    return new ReferenceHostConfig(
        HostAuth.bearer(bearerToken),
        true,
        0,
        List.of(),
        b -> b.governance(DEMO_GOVERNANCE),
        HttpRuntime.UNDERTOW,
        HttpLimits.defaults());
  }

  /** A host answering callers as {@code auth} resolves them (not demo mode). */
  public static ReferenceHostConfig of(HostAuth auth) {
    return new ReferenceHostConfig(
        auth,
        false,
        0,
        List.of(),
        UnaryOperator.identity(),
        HttpRuntime.UNDERTOW,
        HttpLimits.defaults());
  }

  /**
   * A host whose callers are the credentials of a JSON file ({@link Credentials#fromJson}).
   *
   * @throws IOException if the file cannot be read
   * @throws IllegalArgumentException if it is not a valid credentials file
   */
  public static ReferenceHostConfig withCredentials(Path credentialsFile) throws IOException {
    return of(Credentials.fromJson(credentialsFile));
  }

  /** The same with another port. */
  public ReferenceHostConfig withPort(int port) {
    return new ReferenceHostConfig(
        auth, demoMode, port, policies, host, runtime, limits, readiness, console, notifier);
  }

  /** The same on another HTTP runtime. */
  public ReferenceHostConfig withRuntime(HttpRuntime runtime) {
    return new ReferenceHostConfig(
        auth, demoMode, port, policies, host, runtime, limits, readiness, console, notifier);
  }

  /** The same with other HTTP limits (held by the Undertow runtime). */
  public ReferenceHostConfig withLimits(HttpLimits limits) {
    return new ReferenceHostConfig(
        auth, demoMode, port, policies, host, runtime, limits, readiness, console, notifier);
  }

  /** The same holding one more Policy. */
  public ReferenceHostConfig withPolicy(JsonNode policy) {
    List<JsonNode> more = new ArrayList<>(policies);
    more.add(policy);
    return new ReferenceHostConfig(
        auth, demoMode, port, more, host, runtime, limits, readiness, console, notifier);
  }

  /** The same with further host settings. */
  public ReferenceHostConfig withHost(UnaryOperator<HostConfig.Builder> settings) {
    UnaryOperator<HostConfig.Builder> before = host;
    return new ReferenceHostConfig(
        auth,
        demoMode,
        port,
        policies,
        b -> settings.apply(before.apply(b)),
        runtime,
        limits,
        readiness,
        console,
        notifier);
  }

  /**
   * The same on these stores ({@code StoreSpec.open} in {@code jarvis-store-jdbc} opens the
   * PostgreSQL, embedded or in-memory one). The started host owns them: {@link
   * ReferenceHost#close()} closes them after the last request.
   */
  public ReferenceHostConfig withStores(HostStores stores) {
    return withHost(b -> b.stores(stores));
  }

  /**
   * The same serving the review console at {@code /console/} (or not): the page, and its API acting
   * as the signed-in human against this host (docs/console.md). Undertow runtime only.
   */
  public ReferenceHostConfig withConsole(boolean console) {
    return new ReferenceHostConfig(
        auth, demoMode, port, policies, host, runtime, limits, readiness, console, notifier);
  }

  /**
   * The same sending a notification for each accepted Request creation, expiry, Review and Takeover
   * through {@code notifier} (a {@code WebhookNotifier}, say): the host writes each to its store's
   * outbox in the event's unit of work, and a {@code NotificationDispatcher} of this instance
   * delivers the due ones every {@link NotificationDispatcher#DEFAULT_INTERVAL}, at least once,
   * with the default {@code DeliveryPolicy}.
   */
  public ReferenceHostConfig withNotifier(RequestNotifier notifier) {
    return new ReferenceHostConfig(
        auth,
        demoMode,
        port,
        policies,
        host,
        runtime,
        limits,
        readiness,
        console,
        Optional.of(notifier));
  }

  /** The same with another readiness check. */
  public ReferenceHostConfig withReadiness(Readiness readiness) {
    return new ReferenceHostConfig(
        auth, demoMode, port, policies, host, runtime, limits, readiness, console, notifier);
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
