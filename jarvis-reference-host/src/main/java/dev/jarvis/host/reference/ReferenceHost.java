package dev.jarvis.host.reference;

import dev.jarvis.console.Console;
import dev.jarvis.host.IdempotencyPurge;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.RequestExpirySweep;
import dev.jarvis.host.RequestPolicyEvaluation;
import dev.jarvis.host.StoreReadiness;
import dev.jarvis.host.notify.NotificationDispatcher;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * The reference host: the host kit on an HTTP runtime ({@link HttpRuntime}: its thin Undertow
 * binding by default, or its JAX-RS binding on Jersey and the JDK HTTP server), bound to loopback.
 * Start it with {@link #start(ReferenceHostConfig)}, stop it with {@link #close()}: it stops taking
 * connections, lets requests in flight finish, then closes its stores. Besides the protocol it
 * serves {@value HealthEndpoints#LIVE} and {@value HealthEndpoints#READY}, and deletes expired
 * idempotency records every {@link #PURGE_INTERVAL}.
 */
public final class ReferenceHost implements AutoCloseable {

  /** How long {@link #close()} lets requests in flight finish. */
  public static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(10);

  /** How often expired idempotency records are deleted. */
  public static final Duration PURGE_INTERVAL = Duration.ofMinutes(5);

  private static final System.Logger LOG = System.getLogger(ReferenceHost.class.getName());

  private final RunningServer server;
  private final URI baseUri;
  private final Optional<URI> consoleUri;
  private final ProtocolHost host;
  private final HttpRuntime runtime;
  private final IdempotencyPurge.Running purger;
  private final RequestExpirySweep.Running sweeper;
  private final Optional<NotificationDispatcher> dispatcher;
  private final NotificationDispatcher.Running dispatching;
  private final StoreReadiness readiness;
  private boolean closed;

  private ReferenceHost(
      RunningServer server,
      URI baseUri,
      Optional<URI> consoleUri,
      ProtocolHost host,
      HttpRuntime runtime,
      IdempotencyPurge.Running purger,
      RequestExpirySweep.Running sweeper,
      Optional<NotificationDispatcher> dispatcher,
      StoreReadiness readiness) {
    this.server = server;
    this.baseUri = baseUri;
    this.consoleUri = consoleUri;
    this.host = host;
    this.runtime = runtime;
    this.purger = purger;
    this.sweeper = sweeper;
    this.dispatcher = dispatcher;
    this.dispatching =
        dispatcher.isPresent()
            ? dispatcher.get().every(NotificationDispatcher.DEFAULT_INTERVAL)
            : () -> {};
    this.readiness = readiness;
  }

  /** How long closing lets event streams end cleanly before it cuts those that do not read. */
  static final Duration STREAM_GRACE = Duration.ofSeconds(1);

  /** Starts a host; it serves until closed. */
  public static ReferenceHost start(ReferenceHostConfig config) {
    ProtocolHost host = new ProtocolHost(config.hostConfig());
    config.policies().forEach(host::seedPolicy);
    StoreReadiness readiness =
        StoreReadiness.start(
            host.config().stores(), config.readiness().interval(), config.readiness().timeout());
    if (config.console() && config.runtime() != HttpRuntime.UNDERTOW) {
      throw new IllegalArgumentException(
          "the review console is served on the Undertow runtime only, not on " + config.runtime());
    }
    Optional<ConsoleRoute> console =
        config.console() ? Optional.of(new ConsoleRoute()) : Optional.empty();
    RunningServer server;
    try {
      server =
          switch (config.runtime()) {
            case UNDERTOW ->
                UndertowServer.start(
                    host,
                    config.limits(),
                    ReferenceHostConfig.loopback(),
                    config.port(),
                    readiness::ready,
                    console);
            case JERSEY ->
                JerseyServer.start(
                    host, ReferenceHostConfig.loopback(), config.port(), readiness::ready);
          };
    } catch (RuntimeException e) {
      readiness.close();
      throw e;
    }
    IdempotencyPurge.Running purger = new IdempotencyPurge(host).every(PURGE_INTERVAL);
    // Requests expire on time, not only at the next touch of their WorkSession.
    RequestExpirySweep.Running sweeper =
        new RequestExpirySweep(host).every(RequestExpirySweep.DEFAULT_INTERVAL);
    URI bound =
        URI.create(
            "http://"
                + ReferenceHostConfig.loopback().getHostAddress()
                + ":"
                + server.port()
                + "/");
    Optional<URI> consolePage = Optional.empty();
    if (console.isPresent()) {
      // Its API reaches this host over loopback, with the host's own clock for timestamps; the
      // rule that required each Request's review is evaluated here, where the Policy is held.
      Console page =
          Console.forHost(bound, host.config().clock())
              .withReviewRules(RequestPolicyEvaluation.of(host)::of);
      console.get().serve(page);
      consolePage = Optional.of(page.pageOn(bound));
    }
    if (config.demoMode()) {
      // Said where an operator looks: a demo token guards nothing between the Actors.
      LOG.log(System.Logger.Level.WARNING, ReferenceHostConfig.DEMO_MODE_NOTICE);
    }
    // One dispatcher per instance; leases keep instances sharing a store from sending one twice.
    Optional<NotificationDispatcher> dispatcher =
        config
            .notifier()
            .map(
                notifier ->
                    NotificationDispatcher.builder(
                            host.config().stores().notificationOutbox().orElseThrow(), notifier)
                        .clock(host.config().clock())
                        .build());
    return new ReferenceHost(
        server, bound, consolePage, host, config.runtime(), purger, sweeper, dispatcher, readiness);
  }

  /** The request log is written by its own thread: the last lines reach it before "stopped". */
  private static void awaitRequestLog() {
    try {
      RequestLog.awaitWritten(Duration.ofSeconds(1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Where it serves, e.g. {@code http://127.0.0.1:41234/}. */
  public URI baseUri() {
    return baseUri;
  }

  /** The review console's page, e.g. {@code http://127.0.0.1:41234/console/}, when it serves it. */
  public Optional<URI> consoleUri() {
    return consoleUri;
  }

  /** The HTTP runtime it serves on. */
  public HttpRuntime runtime() {
    return runtime;
  }

  /** The host kit instance it runs. */
  public ProtocolHost host() {
    return host;
  }

  /**
   * The notification dispatcher of this instance, when configured with {@link
   * ReferenceHostConfig.Builder#notifier}: {@code dispatchNow()} sends what is due at once.
   */
  public Optional<NotificationDispatcher> notifications() {
    return dispatcher;
  }

  /** Stops gracefully, letting requests in flight finish for up to {@link #SHUTDOWN_GRACE}. */
  @Override
  public void close() {
    close(SHUTDOWN_GRACE);
  }

  /**
   * Stops: readiness turns 503, the listening socket closes, requests in flight finish (for up to
   * {@code grace}), then the stores close: past the grace this aborts store work still blocked (a
   * JDBC pool aborts the connections in use), so that the host stops within the grace and about a
   * second more.
   */
  public void close(Duration grace) {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    purger.close();
    sweeper.close();
    // No notification starts after this; one being sent ends first (the notifier bounds its time).
    dispatcher.ifPresent(NotificationDispatcher::close);
    dispatching.close();
    readiness.close();
    // Streams and long polls end first (": end shutdown"; the client resumes elsewhere): they
    // would otherwise hold the drain below for its whole grace.
    host.closeStreams(STREAM_GRACE);
    try {
      // Past the grace, closing the stores aborts what still waits on the database (HikariCP
      // aborts the connections in use), so those requests answer 503 and the server can stop.
      server.stop(grace, () -> host.config().stores().close());
    } finally {
      host.config().stores().close();
      awaitRequestLog();
    }
  }
}
