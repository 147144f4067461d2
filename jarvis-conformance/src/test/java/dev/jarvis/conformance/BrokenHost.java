package dev.jarvis.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.headers.HeaderLookup;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.sample.SampleRecords;
import dev.jarvis.host.HostAuth;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.model.ProtocolErrorId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The host kit on the JDK HTTP server with one deliberate protocol defect, for proving the
 * conformance suite fails. The defect is played between the wire and the kit, so everything else is
 * a correct host.
 */
public final class BrokenHost implements AutoCloseable {

  /** The defect. */
  public enum Defect {
    /** Answers without {@code Jarvis-Protocol-Version}. */
    NO_PROTOCOL_VERSION_HEADER,
    /** Accepts mutations that carry no idempotency key. */
    ACCEPTS_MISSING_IDEMPOTENCY_KEY,
    /** Ignores the client's cursor: stale revisions and wrong previous hashes are accepted. */
    IGNORES_THE_CURSOR,
    /** Refuses with {@code unknown_state} whatever the reason. */
    WRONG_ERROR_IDS,
    /** Records an agent's own {@code narrow} (or {@code allow}) of a reviewed action. */
    LETS_NARROW_BYPASS_REVIEW(ProtocolErrorId.REVIEW_REQUIRED),
    /** Accepts actions the Policy does not name, and agent actions citing no decision. */
    ACCEPTS_UNLISTED_ACTIONS(
        ProtocolErrorId.POLICY_DENIED, ProtocolErrorId.MISSING_POLICY_DECISION),
    /** Appends an event whose id the WorkSession holds already. */
    DUPLICATES_EVENT_IDS(ProtocolErrorId.INVALID_TRANSITION),
    /**
     * Takes an unsigned or badly signed event of an Actor that must sign ({@link Fixtures#SIGNER})
     * as if its signature held.
     */
    ACCEPTS_BAD_SIGNATURES;

    /** The refusals the defective host answers as if it had accepted the record. */
    private final List<ProtocolErrorId> recordsAnyway;

    Defect(ProtocolErrorId... recordsAnyway) {
      this.recordsAnyway = List.of(recordsAnyway);
    }
  }

  private final ProtocolHost host;
  private final Defect defect;
  private final HttpServer server;

  public BrokenHost(Defect defect, Clock clock, Supplier<String> ids) {
    this.defect = defect;
    this.host =
        new ProtocolHost(
            HostConfig.builder(HostAuth.anyCaller())
                .clock(clock)
                .traceIds(() -> "trace:" + ids.get())
                .actorKeys(Fixtures.SIGNER_KEYS)
                .build());
    host.seedPolicy(SampleRecords.policy());
    try {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext("/", this::serve);
    server.start();
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private void serve(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      String path = exchange.getRequestURI().getRawPath();
      Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      headers.putAll(exchange.getRequestHeaders());
      broken(path, headers);
      String query = exchange.getRequestURI().getRawQuery();
      StoredResponse answer =
          host.answer(
              exchange.getRequestMethod(),
              path,
              query == null ? "" : query,
              HeaderLookup.ofLists(headers),
              body);
      if (recordsAnyway(answer)) {
        // A host that records what it is told instead of enforcing the Policy: the record back.
        exchange.getResponseHeaders().add(JarvisHeaders.PROTOCOL_VERSION, "v0.1");
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(201, body.length);
        exchange.getResponseBody().write(body);
        return;
      }
      answer.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
      if (defect == Defect.NO_PROTOCOL_VERSION_HEADER) {
        exchange.getResponseHeaders().remove(JarvisHeaders.PROTOCOL_VERSION);
      }
      byte[] out = answer.body();
      if (defect == Defect.WRONG_ERROR_IDS && answer.status() == 400) {
        ObjectNode error = (ObjectNode) JarvisJson.mapper().readTree(out);
        error.put("error_id", ProtocolErrorId.UNKNOWN_STATE.getValue());
        out = JarvisJson.mapper().writeValueAsBytes(error);
      }
      exchange.sendResponseHeaders(answer.status(), out.length == 0 ? -1 : out.length);
      exchange.getResponseBody().write(out);
    }
  }

  private boolean recordsAnyway(StoredResponse answer) throws IOException {
    if (answer.status() != 400) {
      return false;
    }
    JsonNode error = JarvisJson.mapper().readTree(answer.body());
    String errorId = error.path("error_id").asText();
    if (defect == Defect.ACCEPTS_BAD_SIGNATURES) {
      // Only the signature refusals: everything else about the event is still judged.
      return ProtocolErrorId.UNAUTHORIZED_ACTOR.getValue().equals(errorId)
          && error.path("object_type").asText().equals("jarvis_event")
          && List.of("/actor_signature", "/signing_key_ref").contains(error.path("field").asText());
    }
    return defect.recordsAnyway.stream().anyMatch(id -> id.getValue().equals(errorId));
  }

  /** Rewrites the request headers the way the defect ignores them. */
  private void broken(String path, Map<String, List<String>> headers) {
    if (defect == Defect.ACCEPTS_MISSING_IDEMPOTENCY_KEY
        && headers.containsKey(JarvisHeaders.REQUEST_TIMESTAMP)
        && !headers.containsKey(JarvisHeaders.IDEMPOTENCY_KEY)) {
      headers.put(JarvisHeaders.IDEMPOTENCY_KEY, List.of(UUID.randomUUID().toString()));
    }
    if (defect == Defect.IGNORES_THE_CURSOR
        && path.matches("/work-sessions/[^/]+/.+")
        && headers.containsKey(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION)) {
      host.config()
          .stores()
          .sessions()
          .find(path.split("/")[2])
          .ifPresent(
              session -> {
                headers.put(
                    JarvisHeaders.EXPECTED_WORK_SESSION_REVISION,
                    List.of(Long.toString(session.cursor().revision())));
                headers.put(
                    JarvisHeaders.PREVIOUS_EVENT_HASH, List.of(session.cursor().lastEventHash()));
              });
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
