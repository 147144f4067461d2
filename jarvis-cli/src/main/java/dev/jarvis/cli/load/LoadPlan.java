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
 *     connection) or all share one; a light plan has a socket per connection either way
 * @param light whether each event is written from a template (only its id, time and chain fields
 *     computed per event) and sent over a plain HTTP/1.1 socket per connection instead of being
 *     built as a record and sent over {@code java.net.http}: the same requests, the same chain, for
 *     a fraction of the generator's CPU (docs/benchmarks.md); plain {@code http} hosts only
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
    boolean light,
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
    if (light) {
      hosts.forEach(PlainHttpConnection::requirePlainHttp);
    }
  }

  /**
   * A plan on one host with {@code jarvis-cli load}'s defaults: 16 connections, 10 s warm-up, 30 s
   * measured, {@code appendJarvisEvent}, every answer checked, a client per connection, records
   * built and sent over {@code java.net.http} (not light), a fresh cast registered by {@code
   * host-admin}, no progress, the system clock.
   */
  public static Builder builder(URI host, String token) {
    return new Builder(host, token);
  }

  @Override
  public String toString() {
    // Never the token.
    return "LoadPlan[" + operation + " on " + hosts + ", " + connections + " connections]";
  }

  /** Builds a {@link LoadPlan}; reusable, so one builder can make a plan per target. */
  public static final class Builder {
    private List<URI> hosts;
    private final String token;
    private String adminActor = "host-admin";
    private Optional<LoadCast> cast = Optional.empty();
    private int connections = 16;
    private Duration warmup = Duration.ofSeconds(10);
    private Duration duration = Duration.ofSeconds(30);
    private LoadOperation operation = LoadOperation.appendJarvisEvent;
    private boolean validateAnswers = true;
    private boolean transportPerConnection = true;
    private boolean light;
    private Optional<PrintStream> progress = Optional.empty();
    private Clock clock = Clock.systemUTC();

    private Builder(URI host, String token) {
      this.hosts = List.of(host);
      this.token = Objects.requireNonNull(token, "token");
    }

    /** The host's instances, connection {@code c} on {@code hosts[c % size]}. */
    public Builder hosts(List<URI> instances) {
      this.hosts = List.copyOf(instances);
      return this;
    }

    /** The Actor that registers a fresh cast (default {@code host-admin}). */
    public Builder adminActor(String actorId) {
      this.adminActor = Objects.requireNonNull(actorId, "actorId");
      return this;
    }

    /** The registered Actors to act as, instead of a fresh cast. */
    public Builder cast(LoadCast given) {
      this.cast = Optional.of(given);
      return this;
    }

    public Builder connections(int count) {
      this.connections = count;
      return this;
    }

    public Builder warmup(Duration time) {
      this.warmup = Objects.requireNonNull(time, "time");
      return this;
    }

    public Builder duration(Duration time) {
      this.duration = Objects.requireNonNull(time, "time");
      return this;
    }

    public Builder operation(LoadOperation what) {
      this.operation = Objects.requireNonNull(what, "what");
      return this;
    }

    /**
     * Light on the generator's machine, for benchmarks: events written from a template and sent
     * over a plain socket per connection, answers read for their status and cursor headers only
     * (not checked against the spec); the chain and the cursors are still checked, refusals and
     * transport failures still counted.
     *
     * @see LoadPlan#light()
     */
    public Builder light() {
      this.validateAnswers = false;
      this.light = true;
      return this;
    }

    /** A line of progress to {@code out} every 5 s, and the run announced there. */
    public Builder progress(PrintStream out) {
      this.progress = Optional.of(out);
      return this;
    }

    public Builder clock(Clock source) {
      this.clock = Objects.requireNonNull(source, "source");
      return this;
    }

    /**
     * @throws IllegalArgumentException if connections or the measured time are under 1 (second) or
     *     the warm-up is negative
     */
    public LoadPlan build() {
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
          light,
          progress,
          clock);
    }
  }
}
