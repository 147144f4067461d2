package dev.jarvis.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.eventlog.EventStream;
import dev.jarvis.core.headers.HeaderLookup;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.host.HeldAnswer;
import dev.jarvis.host.HostAuth;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.LiveStream;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.host.WorkSessionGovernance;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.samples.SampleRecords;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The host kit on the JDK HTTP server with one deliberate protocol defect, for proving the
 * conformance suite fails. The defect is played between the wire and the kit, so everything else is
 * a correct host: it holds the sample Policy, assigned to every human Worker as a conformance run
 * needs, and a {@link #FOREIGN_POLICY} owned by someone else.
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
    ACCEPTS_BAD_SIGNATURES,
    /** Lets any agent open a WorkSession for any human, as if the operator had let it serve. */
    LETS_AGENTS_CHOOSE_THEIR_HUMAN,
    /** Opens a WorkSession under any Policy it holds, whoever it governs. */
    IGNORES_WHOM_A_POLICY_GOVERNS,
    /** Declares {@code event-log} but answers its read 405, as a host of the spec alone does. */
    DECLARES_AN_EVENT_LOG_IT_DOES_NOT_SERVE,
    /** Declares {@code cursor-headers} but sends none. */
    DECLARES_CURSOR_HEADERS_IT_DOES_NOT_SEND,
    /**
     * Declares {@code event-stream} but answers a read with {@code Accept: text/event-stream} as
     * the JSON page, as a host without the capability does.
     */
    DECLARES_AN_EVENT_STREAM_IT_DOES_NOT_SERVE,
    /** Streams each event with {@code id:} the event's {@code id}, not its {@code sequence}. */
    STREAMS_EVENT_IDS_NOT_SEQUENCES,
    /**
     * Streams a WorkSession's events and then, once, the genesis event of another WorkSession (one
     * of the same creator, as a store queried by the wrong key would).
     */
    STREAMS_ANOTHER_WORK_SESSIONS_EVENTS,
    /**
     * Answers every inbox read ({@code request-inbox}) with the inbox of the human who last opened
     * a WorkSession, whoever asks: as a store queried by the wrong Worker would.
     */
    SHOWS_ANOTHER_HUMANS_REQUESTS;

    /** The refusals the defective host answers as if it had accepted the record. */
    private final List<ProtocolErrorId> recordsAnyway;

    Defect(ProtocolErrorId... recordsAnyway) {
      this.recordsAnyway = List.of(recordsAnyway);
    }
  }

  /** A Policy the host holds for another human Worker, assigned to no one else. */
  static final String FOREIGN_POLICY = "policy-foreign-001";

  private final ProtocolHost host;
  private final Defect defect;
  private final HttpServer server;

  /** The WorkSessions the run's requests named, for the defect that strays into another's. */
  private final Set<String> sessions = ConcurrentHashMap.newKeySet();

  /** The Actor that last opened a WorkSession, whose inbox the inbox defect shows to anyone. */
  private volatile String lastCreator;

  private final ExecutorService threads =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "broken-host");
            t.setDaemon(true);
            return t;
          });

  public BrokenHost(Defect defect, Clock clock, Supplier<String> ids) {
    this.defect = defect;
    this.host =
        new ProtocolHost(
            HostConfig.builder(HostAuth.anyCaller())
                .clock(clock)
                .traceIds(() -> "trace:" + ids.get())
                .actorKeys(Fixtures.SIGNER_KEYS)
                // A correct host serves the event stream too, held on threads of its own.
                .capability(HostConfig.EVENT_STREAM)
                .capability(dev.jarvis.core.requestinbox.RequestInbox.CAPABILITY)
                .governance(
                    WorkSessionGovernance.NONE.assignPolicyToEveryHuman(SampleRecords.POLICY_ID))
                .build());
    host.seedPolicy(SampleRecords.policy());
    ObjectNode foreign = SampleRecords.policy();
    foreign.put("id", FOREIGN_POLICY);
    foreign.put("owner_worker_id", "worker-someone-else");
    host.seedPolicy(foreign);
    try {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext("/", this::serve);
    server.setExecutor(threads);
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
      if (path.startsWith("/work-sessions/") && path.split("/").length > 2) {
        sessions.add(path.split("/")[2]);
      }
      String query = exchange.getRequestURI().getRawQuery();
      boolean eventLogRead =
          exchange.getRequestMethod().equals("GET") && path.matches("/work-sessions/[^/]+/events");
      if (exchange.getRequestMethod().equals("POST") && path.equals("/work-sessions")) {
        Optional.ofNullable(headers.get(JarvisHeaders.ACTOR_ID))
            .filter(v -> !v.isEmpty())
            .ifPresent(v -> lastCreator = v.get(0));
      }
      Function<String, Optional<String>> lookup = HeaderLookup.ofLists(headers);
      if (defect == Defect.SHOWS_ANOTHER_HUMANS_REQUESTS
          && path.equals(dev.jarvis.core.requestinbox.RequestInbox.PATH)
          && lastCreator != null
          && lookup.apply(JarvisHeaders.ACTOR_ID).filter(this::isHuman).isPresent()) {
        Function<String, Optional<String>> asked = lookup;
        String creator = lastCreator;
        lookup =
            name ->
                name.equalsIgnoreCase(JarvisHeaders.ACTOR_ID)
                    ? Optional.of(creator)
                    : asked.apply(name);
      }
      String rawQuery = query == null ? "" : query;
      StoredResponse answer;
      if (defect == Defect.DECLARES_AN_EVENT_LOG_IT_DOES_NOT_SERVE && eventLogRead) {
        answer = host.outsideTheProtocol(405, "No such method here.");
      } else if (defect != Defect.DECLARES_AN_EVENT_STREAM_IT_DOES_NOT_SERVE
          && host.holds(exchange.getRequestMethod(), path, rawQuery, lookup)) {
        HeldAnswer held =
            host.answerHeld(exchange.getRequestMethod(), path, rawQuery, lookup, body);
        if (held instanceof HeldAnswer.Streaming streaming) {
          stream(exchange, streaming.stream());
          return;
        }
        answer =
            held instanceof HeldAnswer.Polling polling
                ? polling.answer().toCompletableFuture().join()
                : ((HeldAnswer.Answered) held).response();
      } else {
        answer = host.answer(exchange.getRequestMethod(), path, rawQuery, lookup, body);
      }
      boolean genesis = exchange.getRequestMethod().equals("POST") && path.equals("/work-sessions");
      if (recordsAnyway(answer, genesis)) {
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
      if (defect == Defect.DECLARES_CURSOR_HEADERS_IT_DOES_NOT_SEND) {
        exchange.getResponseHeaders().remove(JarvisHeaders.WORK_SESSION_REVISION);
        exchange.getResponseHeaders().remove(JarvisHeaders.LAST_EVENT_HASH);
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

  /** Whether {@code actorId} is a registered human Actor: the inbox defect shows humans only. */
  private boolean isHuman(String actorId) {
    return host.config()
        .stores()
        .records()
        .body(dev.jarvis.host.RecordKind.ACTOR, actorId)
        .filter(a -> a.path("type").asText().equals("human"))
        .isPresent();
  }

  /** Runs an accepted stream on this request's thread, played through the defect. */
  private void stream(HttpExchange exchange, LiveStream stream) throws IOException {
    stream.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
    exchange.sendResponseHeaders(200, 0);
    OutputStream out = exchange.getResponseBody();
    if (defect == Defect.STREAMS_EVENT_IDS_NOT_SEQUENCES
        || defect == Defect.STREAMS_ANOTHER_WORK_SESSIONS_EVENTS) {
      out = new DefectiveFrames(out, stream.workSessionId());
    }
    stream.run(out, exchange::close);
  }

  /** Rewrites each frame as the defect has it; the stream writes one frame per write. */
  private final class DefectiveFrames extends FilterOutputStream {

    private final String session;
    private boolean strayed;

    DefectiveFrames(OutputStream out, String session) {
      super(out);
      this.session = session;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      String text = new String(bytes, offset, length, StandardCharsets.UTF_8);
      if (!text.startsWith("id: ")) {
        out.write(bytes, offset, length);
        return;
      }
      String data = text.substring(text.indexOf("data: ") + 6).trim();
      JsonNode event = JarvisJson.mapper().readTree(data);
      if (defect == Defect.STREAMS_EVENT_IDS_NOT_SEQUENCES) {
        // The event's id where its sequence belongs.
        out.write(
            ("id: " + event.path("id").asText() + "\ndata: " + data + "\n\n")
                .getBytes(StandardCharsets.UTF_8));
        return;
      }
      out.write(bytes, offset, length);
      if (!strayed) {
        strayed = true;
        otherGenesis(event).ifPresent(other -> writeQuietly(other));
      }
    }

    private Optional<JsonNode> otherGenesis(JsonNode event) {
      return sessions.stream()
          .filter(id -> !id.equals(session))
          .findFirst()
          .flatMap(id -> host.config().stores().sessions().events(id, 0, 1).stream().findFirst());
    }

    private void writeQuietly(JsonNode other) {
      try {
        out.write(
            EventStream.frame(
                other.path("sequence").asLong(), JarvisJson.mapper().writeValueAsString(other)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
    }
  }

  private boolean recordsAnyway(StoredResponse answer, boolean genesis) throws IOException {
    if (answer.status() != 400) {
      return false;
    }
    JsonNode error = JarvisJson.mapper().readTree(answer.body());
    String errorId = error.path("error_id").asText();
    if (defect == Defect.LETS_AGENTS_CHOOSE_THEIR_HUMAN) {
      // Only the creator rule: a WorkSession's other rules still hold.
      return genesis
          && ProtocolErrorId.UNAUTHORIZED_ACTOR.getValue().equals(errorId)
          && error.path("field").asText().equals(JarvisHeaders.ACTOR_ID);
    }
    if (defect == Defect.IGNORES_WHOM_A_POLICY_GOVERNS) {
      return genesis && ProtocolErrorId.MISSING_POLICY.getValue().equals(errorId);
    }
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
    host.closeStreams(Duration.ZERO);
    server.stop(0);
    threads.shutdownNow();
  }
}
