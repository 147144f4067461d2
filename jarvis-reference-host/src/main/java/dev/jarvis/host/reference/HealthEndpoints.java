package dev.jarvis.host.reference;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.jarvis.host.StoreReadiness;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Liveness and readiness for load balancers and orchestrators, outside the protocol's paths and
 * outside the protocol binding (so probes are neither HostAuth-checked nor written to the request
 * log):
 *
 * <ul>
 *   <li>{@value #LIVE}: 200 while the process serves HTTP at all; it touches no store;
 *   <li>{@value #READY}: 200 when the store's last background check answered in time and the host
 *       is not shutting down, else 503; a balancer stops sending new requests as soon as shutdown
 *       begins.
 * </ul>
 *
 * The answers are decided here once ({@link #answer}), without blocking; each runtime only writes
 * them.
 */
final class HealthEndpoints {

  /** Liveness path. */
  static final String LIVE = "/health/live";

  /** Readiness path. */
  static final String READY = "/health/ready";

  /** A probe's answer: status and a one-word text body (none for HEAD). */
  record Answer(int status, String text) {
    byte[] body() {
      return (text + "\n").getBytes(StandardCharsets.UTF_8);
    }
  }

  private final BooleanSupplier storeReady;
  private final BooleanSupplier draining;

  /**
   * @param storeReady the store's last checked readiness ({@link StoreReadiness#ready()}): it must
   *     not block, since probes are answered on the I/O thread
   * @param draining whether shutdown has begun
   */
  HealthEndpoints(BooleanSupplier storeReady, BooleanSupplier draining) {
    this.storeReady = storeReady;
    this.draining = draining;
  }

  /** The answer for a health path, or empty for any other path. */
  Optional<Answer> answer(String method, String path) {
    if (!path.equals(LIVE) && !path.equals(READY)) {
      return Optional.empty();
    }
    if (!method.equals("GET") && !method.equals("HEAD")) {
      return Optional.of(new Answer(405, "method not allowed"));
    }
    if (path.equals(LIVE)) {
      return Optional.of(new Answer(200, "live"));
    }
    if (draining.getAsBoolean()) {
      return Optional.of(new Answer(503, "draining"));
    }
    if (!storeReady.getAsBoolean()) {
      return Optional.of(new Answer(503, "store unavailable"));
    }
    return Optional.of(new Answer(200, "ready"));
  }

  /** Serves both paths on the JDK server, beside Jersey. */
  void registerOn(HttpServer server) {
    server.createContext(LIVE, this::write);
    server.createContext(READY, this::write);
  }

  private void write(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      Optional<Answer> answer = answer(method, exchange.getRequestURI().getPath());
      if (answer.isEmpty()) {
        // A context matches by prefix: /health/live/x is no probe.
        exchange.sendResponseHeaders(404, -1);
        return;
      }
      if (answer.get().status() == 405) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      byte[] body = answer.get().body();
      exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
      exchange.getResponseHeaders().set("Cache-Control", "no-store");
      boolean head = method.equals("HEAD");
      exchange.sendResponseHeaders(answer.get().status(), head ? -1 : body.length);
      if (!head) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    }
  }
}
