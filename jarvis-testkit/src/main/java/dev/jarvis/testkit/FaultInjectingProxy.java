package dev.jarvis.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP proxy on loopback that stands between a client and a host and injects the faults a
 * network and a load balancer produce, for tests that prove no fault duplicates or loses an effect:
 *
 * <ul>
 *   <li>{@link Kind#UNAVAILABLE_BEFORE}: answers 503 without forwarding (the host never sees it);
 *   <li>{@link Kind#DROPPED_BEFORE}: closes the connection without forwarding;
 *   <li>{@link Kind#LOST_AFTER}: forwards, lets the host apply the request, then closes the
 *       connection instead of answering: the client cannot know the effect happened;
 *   <li>{@link Kind#DELAYED_AFTER}: forwards, then answers only after {@code delay}, past a short
 *       client timeout (the host applied it).
 * </ul>
 *
 * Which request gets which fault comes from a seeded {@link Random}, so a failing run can be
 * replayed. No request is faulted more than {@code maxFaultsPerRequest} times in a row (requests
 * are told apart by method, path and {@code Jarvis-Idempotency-Key}), so a client with enough
 * retries always gets through.
 */
public final class FaultInjectingProxy implements AutoCloseable {

  /** What the proxy does to one request. */
  public enum Kind {
    UNAVAILABLE_BEFORE,
    DROPPED_BEFORE,
    LOST_AFTER,
    DELAYED_AFTER
  }

  private static final Set<String> HOP_BY_HOP =
      Set.of("connection", "content-length", "host", "transfer-encoding", "upgrade", "expect");

  private static final String NO_DELAY = "sun.net.httpserver.nodelay";

  static {
    // The JDK server (17) flushes a response's headers before its body is written: with Nagle's
    // algorithm on, the body then waits for the client's delayed ACK of the headers, ~40 ms per
    // answer with a body. It reads this property once per JVM, when its first server is made; a
    // host on the JDK server sets it too (JerseyServer), so without it here the proxy was slow
    // only in front of other hosts. An explicit setting is kept.
    if (System.getProperty(NO_DELAY) == null) {
      System.setProperty(NO_DELAY, "true");
    }
  }

  private final URI target;
  private final Random random;
  private final double faultRate;
  private final Set<Kind> kinds;
  private final int maxFaultsPerRequest;
  private final Duration delay;
  private final HttpServer server;
  private final ExecutorService workers = Executors.newCachedThreadPool();
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final Map<String, Integer> faultsInARow = new ConcurrentHashMap<>();
  private final Map<Kind, AtomicInteger> injected = new EnumMap<>(Kind.class);
  private final AtomicInteger forwarded = new AtomicInteger();

  private FaultInjectingProxy(Builder builder) {
    this.target = builder.target;
    this.random = new Random(builder.seed);
    this.faultRate = builder.faultRate;
    this.kinds = Set.copyOf(builder.kinds);
    this.maxFaultsPerRequest = builder.maxFaultsPerRequest;
    this.delay = builder.delay;
    for (Kind kind : Kind.values()) {
      injected.put(kind, new AtomicInteger());
    }
    try {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(workers);
    server.createContext("/", this::serve);
    server.start();
  }

  /** A proxy in front of {@code target}, e.g. {@code http://127.0.0.1:8080/}. */
  public static Builder to(URI target) {
    return new Builder(target);
  }

  /** Where clients send requests instead of the host: {@code http://127.0.0.1:<port>/}. */
  public URI baseUri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
  }

  /** How many faults of each kind were injected so far. */
  public Map<Kind, Integer> injected() {
    Map<Kind, Integer> counts = new EnumMap<>(Kind.class);
    injected.forEach((kind, n) -> counts.put(kind, n.get()));
    return counts;
  }

  /** All faults injected so far. */
  public int injectedTotal() {
    return injected.values().stream().mapToInt(AtomicInteger::get).sum();
  }

  /** How many requests reached the host. */
  public int forwarded() {
    return forwarded.get();
  }

  private void serve(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      String identity =
          exchange.getRequestMethod()
              + " "
              + exchange.getRequestURI()
              + " "
              + exchange.getRequestHeaders().getFirst("Jarvis-Idempotency-Key");
      Kind fault = decide(identity);
      if (fault == Kind.UNAVAILABLE_BEFORE) {
        exchange.getResponseHeaders().add("Retry-After", "0");
        exchange.sendResponseHeaders(503, -1);
        return;
      }
      if (fault == Kind.DROPPED_BEFORE) {
        return; // closing without a status line: the client reads an empty answer
      }
      HttpResponse<byte[]> answer = forward(exchange, body);
      if (fault == Kind.LOST_AFTER) {
        return;
      }
      if (fault == Kind.DELAYED_AFTER) {
        // The proxy plays a slow network: the client is meant to time out first.
        Thread.sleep(delay.toMillis());
      }
      answer
          .headers()
          .map()
          .forEach(
              (name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase(java.util.Locale.ROOT))
                    && !name.startsWith(":")) {
                  exchange.getResponseHeaders().put(name, List.copyOf(values));
                }
              });
      byte[] out = answer.body();
      exchange.sendResponseHeaders(answer.statusCode(), out.length == 0 ? -1 : out.length);
      exchange.getResponseBody().write(out);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Null for no fault. */
  private Kind decide(String identity) {
    synchronized (random) {
      int inARow = faultsInARow.getOrDefault(identity, 0);
      if (kinds.isEmpty() || inARow >= maxFaultsPerRequest || random.nextDouble() >= faultRate) {
        faultsInARow.remove(identity);
        return null;
      }
      Kind[] choices = kinds.toArray(Kind[]::new);
      java.util.Arrays.sort(choices);
      Kind kind = choices[random.nextInt(choices.length)];
      faultsInARow.put(identity, inARow + 1);
      injected.get(kind).incrementAndGet();
      return kind;
    }
  }

  private HttpResponse<byte[]> forward(HttpExchange exchange, byte[] body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(target.resolve(exchange.getRequestURI().toString().substring(1)))
            .method(
                exchange.getRequestMethod(),
                body.length == 0
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    exchange
        .getRequestHeaders()
        .forEach(
            (name, values) -> {
              if (!HOP_BY_HOP.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                values.forEach(v -> request.header(name, v));
              }
            });
    HttpResponse<byte[]> answer =
        http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    forwarded.incrementAndGet();
    return answer;
  }

  @Override
  public void close() {
    server.stop(0);
    workers.shutdownNow();
  }

  /** Configures a {@link FaultInjectingProxy}. */
  public static final class Builder {
    private final URI target;
    private long seed = 1;
    private double faultRate = 0.3;
    private Set<Kind> kinds = Set.of(Kind.UNAVAILABLE_BEFORE, Kind.DROPPED_BEFORE, Kind.LOST_AFTER);
    private int maxFaultsPerRequest = 2;
    private Duration delay = Duration.ofMillis(500);

    private Builder(URI target) {
      this.target = Objects.requireNonNull(target, "target");
    }

    /** The seed of the fault plan (default 1): the same seed and requests give the same faults. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** The share of requests that get a fault, 0 to 1 (default 0.3). */
    public Builder faultRate(double rate) {
      if (rate < 0 || rate > 1) {
        throw new IllegalArgumentException("a fault rate is within [0, 1]: " + rate);
      }
      this.faultRate = rate;
      return this;
    }

    /** The kinds of fault to draw from (default: every kind but {@link Kind#DELAYED_AFTER}). */
    public Builder kinds(Set<Kind> kinds) {
      this.kinds = Set.copyOf(kinds);
      return this;
    }

    /** At most this many faults in a row for one request (default 2). */
    public Builder maxFaultsPerRequest(int max) {
      this.maxFaultsPerRequest = max;
      return this;
    }

    /** How long {@link Kind#DELAYED_AFTER} holds an answer back (default 500 ms). */
    public Builder delay(Duration delay) {
      this.delay = Objects.requireNonNull(delay, "delay");
      return this;
    }

    /** Starts the proxy on a free loopback port. */
    public FaultInjectingProxy start() {
      return new FaultInjectingProxy(this);
    }
  }
}
