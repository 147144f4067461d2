package dev.jarvis.cli.load;

import java.io.PrintStream;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a load run does.
 *
 * @param hosts the host's instances; connection {@code c} drives {@code hosts[c % size]}, and the
 *     first registers the cast
 * @param token the bearer token of every request
 * @param adminActor the Actor that registers the cast when none is given
 * @param cast the Actors to act as; empty to register fresh ones
 * @param connections how many connections, each on its own WorkSession
 * @param warmup load before measuring
 * @param duration the measured time
 * @param operation what each request does
 * @param validateAnswers whether every answer is checked against the spec (the chain and the
 *     cursors are always checked); off, the generator spends less of the machine on itself
 * @param transportPerConnection whether each connection has its own HTTP client (its own keep-alive
 *     connection) or all share one
 * @param progress where a line of progress goes every 5 s of the measured phase, if anywhere
 * @param clock the times of records and headers
 */
public record LoadPlan(
    List<URI> hosts,
    String token,
    String adminActor,
    Optional<LoadCast> cast,
    int connections,
    Duration warmup,
    Duration duration,
    LoadOperation operation,
    boolean validateAnswers,
    boolean transportPerConnection,
    Optional<PrintStream> progress,
    Clock clock) {

  public LoadPlan {
    hosts = List.copyOf(hosts);
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(adminActor, "adminActor");
    Objects.requireNonNull(cast, "cast");
    Objects.requireNonNull(warmup, "warmup");
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(progress, "progress");
    Objects.requireNonNull(clock, "clock");
    if (hosts.isEmpty()) {
      throw new IllegalArgumentException("a load run needs a host");
    }
    if (connections < 1 || duration.toSeconds() < 1 || warmup.isNegative()) {
      throw new IllegalArgumentException(
          "--connections and --duration must be at least 1, --warmup 0");
    }
  }

  /**
   * The plan of {@code jarvis-cli load}'s defaults on one host: 16 connections, 10 s warm-up, 30 s
   * measured, {@code appendJarvisEvent}, every answer checked, a client per connection, a fresh
   * cast registered by {@code host-admin}, no progress, the system clock.
   */
  public static LoadPlan of(URI host, String token) {
    return new LoadPlan(
        List.of(host),
        token,
        "host-admin",
        Optional.empty(),
        16,
        Duration.ofSeconds(10),
        Duration.ofSeconds(30),
        LoadOperation.appendJarvisEvent,
        true,
        true,
        Optional.empty(),
        Clock.systemUTC());
  }

  /** The same plan on these instances. */
  public LoadPlan withHosts(List<URI> others) {
    return new LoadPlan(
        others,
        token,
        adminActor,
        cast,
        connections,
        warmup,
        duration,
        operation,
        validateAnswers,
        transportPerConnection,
        progress,
        clock);
  }

  /** The same plan with this admin Actor and cast (empty: register a fresh one). */
  public LoadPlan withCast(String admin, Optional<LoadCast> given) {
    return new LoadPlan(
        hosts,
        token,
        admin,
        given,
        connections,
        warmup,
        duration,
        operation,
        validateAnswers,
        transportPerConnection,
        progress,
        clock);
  }

  /** The same plan with this shape: connections, warm-up, measured time, operation. */
  public LoadPlan withShape(int count, Duration warm, Duration measured, LoadOperation what) {
    return new LoadPlan(
        hosts,
        token,
        adminActor,
        cast,
        count,
        warm,
        measured,
        what,
        validateAnswers,
        transportPerConnection,
        progress,
        clock);
  }

  /**
   * The same plan, lighter or not on the generator's machine: answers checked against the spec or
   * not, a client per connection or one shared.
   */
  public LoadPlan withWeight(boolean validate, boolean clientPerConnection) {
    return new LoadPlan(
        hosts,
        token,
        adminActor,
        cast,
        connections,
        warmup,
        duration,
        operation,
        validate,
        clientPerConnection,
        progress,
        clock);
  }

  /** The same plan printing its progress to {@code out}. */
  public LoadPlan withProgress(PrintStream out) {
    return new LoadPlan(
        hosts,
        token,
        adminActor,
        cast,
        connections,
        warmup,
        duration,
        operation,
        validateAnswers,
        transportPerConnection,
        Optional.of(out),
        clock);
  }

  @Override
  public String toString() {
    // Never the token.
    return "LoadPlan[" + operation + " on " + hosts + ", " + connections + " connections]";
  }
}
