package dev.jarvis.host.reference;

import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.host.undertow.HttpLimits;
import dev.jarvis.host.undertow.LimitedServer;
import dev.jarvis.host.undertow.ProtocolHandler;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.GracefulShutdownHandler;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * The host kit's thin Undertow binding ({@code jarvis-host-undertow}), served as the reference
 * host's {@link HttpRuntime#UNDERTOW}: health probes first, then every other request through {@link
 * ProtocolHandler} behind Undertow's graceful shutdown (503 once draining, with a full {@code
 * ProtocolError} and {@code Retry-After}; it counts requests until their answer is sent, so
 * stopping waits for exactly those).
 */
final class UndertowServer implements RunningServer {

  /** How long requests whose store work was aborted get to send their answer. */
  static final Duration ANSWERS_AFTER_ABORT = Duration.ofMillis(500);

  /**
   * How long stopping waits for worker threads still busy (a request in code that does not heed
   * interrupts): the process exits within the grace and about a second more regardless.
   */
  static final Duration WORKER_STOP = Duration.ofMillis(500);

  private final Undertow server;
  private final GracefulShutdownHandler graceful;
  private final AtomicBoolean draining;

  private UndertowServer(
      Undertow server, GracefulShutdownHandler graceful, AtomicBoolean draining) {
    this.server = server;
    this.graceful = graceful;
    this.draining = draining;
  }

  static UndertowServer start(
      ProtocolHost host,
      HttpLimits limits,
      InetAddress address,
      int port,
      BooleanSupplier storeReady,
      Optional<ConsoleRoute> console) {
    AtomicBoolean draining = new AtomicBoolean();
    HealthEndpoints health = new HealthEndpoints(storeReady, draining::get);
    GracefulShutdownHandler graceful =
        new GracefulShutdownHandler(
            new ProtocolHandler(host, limits, UndertowServer::logAnswer, answerThread(host)));
    HttpHandler root =
        exchange -> {
          Optional<HealthEndpoints.Answer> probe =
              health.answer(exchange.getRequestMethod().toString(), exchange.getRequestPath());
          if (probe.isPresent()) {
            // Decided without blocking (the store is checked in the background): answered right
            // here, on the I/O thread, even when every worker is busy.
            writeProbe(exchange, probe.get());
            return;
          }
          if (console.isPresent() && console.get().handles(exchange.getRequestPath())) {
            // The page and its API, outside the protocol binding: never in the request log,
            // which would otherwise see the console's paths (never its token).
            console.get().handleRequest(exchange);
            return;
          }
          // Undertow's graceful handler refuses a request while draining with a bare 503; this
          // gives that answer a body and headers a client can act on.
          exchange.addDefaultResponseListener(
              ended -> {
                if (!draining.get() || ended.getStatusCode() != 503 || ended.isResponseStarted()) {
                  return false;
                }
                ended.setPersistent(false);
                writeStored(ended, host.shuttingDown());
                return true;
              });
          graceful.handleRequest(exchange);
        };
    Undertow server =
        LimitedServer.builder(limits)
            .setServerOption(UndertowOptions.SHUTDOWN_TIMEOUT, (int) WORKER_STOP.toMillis())
            .addHttpListener(port, address.getHostAddress())
            .setHandler(root)
            .build();
    server.start();
    return new UndertowServer(server, graceful, draining);
  }

  /**
   * The IO thread for a host whose work never waits outside the JVM (the in-memory store, no commit
   * hook): the hand-off to a worker cost more CPU than the protocol work of an append
   * (docs/benchmarks.md, "JFR profiles before and after"). A worker for every other host. The
   * reference host's own HostAuth and listener return at once, and its request log only queues a
   * line.
   */
  static ProtocolHandler.AnswerThread answerThread(ProtocolHost host) {
    return host.config().stores().mayWait() || host.config().commitHook().isPresent()
        ? ProtocolHandler.AnswerThread.WORKER
        : ProtocolHandler.AnswerThread.IO;
  }

  private static void writeProbe(HttpServerExchange exchange, HealthEndpoints.Answer answer) {
    exchange.setStatusCode(answer.status());
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
    exchange.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-store");
    if (answer.status() == 405 || exchange.getRequestMethod().toString().equals("HEAD")) {
      exchange.endExchange();
    } else {
      exchange.getResponseSender().send(ByteBuffer.wrap(answer.body()));
    }
  }

  private static void writeStored(HttpServerExchange exchange, StoredResponse answer) {
    exchange.setStatusCode(answer.status());
    answer
        .headers()
        .forEach((name, value) -> exchange.getResponseHeaders().put(new HttpString(name), value));
    exchange.getResponseHeaders().put(Headers.CONNECTION, "close");
    exchange.getResponseSender().send(ByteBuffer.wrap(answer.body()));
  }

  private static void logAnswer(HttpServerExchange exchange, int status) {
    if (RequestLog.enabled()) {
      RequestLog.log(
          exchange.getRequestMethod().toString(),
          exchange.getRequestPath(),
          status,
          exchange.getRequestHeaders().getFirst(JarvisHeaders.ACTOR_ID));
    }
  }

  @Override
  public int port() {
    return ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
  }

  @Override
  public void stop(Duration grace, Runnable pastGrace) {
    draining.set(true);
    graceful.shutdown();
    try {
      if (!graceful.awaitShutdown(grace.toMillis())) {
        pastGrace.run();
        // The aborted requests answer now: a moment to send it before the sockets close.
        graceful.awaitShutdown(ANSWERS_AFTER_ABORT.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      server.stop();
    }
  }
}
