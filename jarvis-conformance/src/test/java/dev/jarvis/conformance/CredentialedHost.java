package dev.jarvis.conformance;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.headers.HeaderLookup;
import dev.jarvis.host.Credentials;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.host.WorkSessionGovernance;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.samples.SampleRecords;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The host kit on the JDK HTTP server as a real host runs it: each bearer token bound to the Actors
 * it may act as ({@link Credentials}), optionally under a path prefix, as a binding mounted beside
 * an application's own endpoints would be. It holds the sample Policy, assigned to every human
 * Worker as a conformance run needs (the suite's human is new in each run), and {@link
 * #FOREIGN_POLICY}, someone else's.
 */
final class CredentialedHost implements AutoCloseable {

  static final ActorCredential ADMIN = new ActorCredential("host-admin", "admin-token-1");

  /** The run prefix the role Actors below are under: each test's host is new, so it is fresh. */
  static final String RUN = "conformance-run-1-";

  static final ActorCredential HUMAN = new ActorCredential(RUN + "human", "human-token-1");
  static final ActorCredential AGENT = new ActorCredential(RUN + "agent", "agent-token-1");
  static final ActorCredential OUTSIDER = new ActorCredential(RUN + "outsider", "outsider-token-1");

  /** A Policy the host holds for another human Worker. */
  static final String FOREIGN_POLICY = "policy-foreign-001";

  private final ProtocolHost host;
  private final HttpServer server;
  private final List<String> registered = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final String prefix;

  CredentialedHost(String prefix, Clock clock, Supplier<String> ids) {
    this.prefix = prefix;
    Credentials credentials =
        Credentials.of(
            List.of(
                credential(ADMIN, true),
                credential(HUMAN, false),
                credential(AGENT, false),
                credential(OUTSIDER, false)));
    host =
        new ProtocolHost(
            HostConfig.builder(credentials)
                .clock(clock)
                .traceIds(() -> "trace:" + ids.get())
                .listener(
                    new dev.jarvis.host.ProtocolListener() {
                      @Override
                      public void accepted(dev.jarvis.host.HandledCall call) {
                        if (call.call().operation().operationId().startsWith("register")) {
                          registered.add(call.call().body().path("id").asText());
                        }
                      }
                    })
                .governance(
                    WorkSessionGovernance.NONE.assignPolicyToEveryHuman(SampleRecords.POLICY_ID))
                .build());
    host.seedPolicy(SampleRecords.policy());
    host.seedPolicy(Policies.foreign(FOREIGN_POLICY));
    try {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext("/", this::serve);
    server.start();
  }

  private static Credentials.Credential credential(ActorCredential c, boolean admin) {
    return new Credentials.Credential(
        HexFormat.of().parseHex(Credentials.sha256Hex(c.token())), Set.of(c.actorId()), admin);
  }

  /** The ids of every Worker and Actor the host accepted a registration of, in order. */
  List<String> registered() {
    return List.copyOf(registered);
  }

  /** The base URL the suite is given: the server and the prefix. */
  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + prefix;
  }

  private static String rawQuery(HttpExchange exchange) {
    String query = exchange.getRequestURI().getRawQuery();
    return query == null ? "" : query;
  }

  private void serve(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      String path = exchange.getRequestURI().getRawPath();
      Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      headers.putAll(exchange.getRequestHeaders());
      StoredResponse answer =
          path.startsWith(prefix + "/")
              ? host.answer(
                  exchange.getRequestMethod(),
                  path.substring(prefix.length()),
                  rawQuery(exchange),
                  HeaderLookup.ofLists(headers),
                  body)
              : notFound(path);
      answer.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
      byte[] out = answer.body();
      exchange.sendResponseHeaders(answer.status(), out.length == 0 ? -1 : out.length);
      exchange.getResponseBody().write(out);
    }
  }

  private StoredResponse notFound(String path) {
    return host.failure(
        404,
        ProtocolViolation.of(
            ProtocolErrorId.UNKNOWN_STATE, "operation", path, "No such operation."));
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
