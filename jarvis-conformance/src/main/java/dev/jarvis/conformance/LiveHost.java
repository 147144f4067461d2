package dev.jarvis.conformance;

import static dev.jarvis.conformance.ExchangeRules.expectSuccess;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.core.sample.SampleRecords;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The host under test as the live checks see it: the connection, the Workers and Actors the suite
 * registered, fresh ids and times, and the requests a correct client would send. Each check builds
 * its own WorkSessions with {@link #newSession()} and reads the cursor with {@link #cursor} before
 * every WorkSession mutation, so a host that wrongly accepts one request does not make later checks
 * fail for the wrong reason.
 */
final class LiveHost {

  /** A well-formed hash that is no event's. */
  static final String FOREIGN_HASH = "sha256:" + "0".repeat(64);

  private static final String CURSOR_HEADERS = JarvisHeaders.CURSOR_HEADERS_CAPABILITY;
  private static final String REVISION_HEADER = JarvisHeaders.WORK_SESSION_REVISION;
  private static final String LAST_HASH_HEADER = JarvisHeaders.LAST_EVENT_HASH;

  private final SuiteExchanges host;
  private final Supplier<String> ids;
  private final Clock clock;
  final String registrar;
  final String policy;
  final String runPrefix;
  final String humanWorker;
  final String agentWorker;
  final String human;
  final String agent;
  final String outsiderWorker;
  final String outsider;

  LiveHost(ConformanceConfig config, SuiteExchanges host) {
    this.host = host;
    this.ids = config.ids();
    this.clock = config.clock();
    this.registrar = config.registrarActorId();
    this.policy = config.policyId();
    // Every Worker and Actor the suite registers is its own, under the run's prefix, so a run on a
    // live service touches nothing it did not create. A host that binds credentials to Actors lets
    // each token act only as its own Actor: those Actors are then under the prefix too
    // (ConformanceConfig refuses them otherwise), and the suite registers them under its Workers.
    String run = config.runPrefix();
    this.runPrefix = run;
    this.humanWorker = run + "worker-human";
    this.agentWorker = run + "worker-agent";
    var roles = config.roles();
    this.human = roles.map(r -> r.human().actorId()).orElse(run + "actor-human");
    this.agent = roles.map(r -> r.agent().actorId()).orElse(run + "actor-agent");
    this.outsiderWorker = run + "worker-outsider";
    this.outsider =
        roles
            .flatMap(RoleCredentials::outsider)
            .map(ActorCredential::actorId)
            .orElse(run + "actor-outsider");
  }

  Exchange send(String operationId, String pathId, Map<String, String> headers, JsonNode body) {
    return host.send(operationId, pathId, headers, body);
  }

  Exchange send(String operationId, String pathId, Map<String, String> headers) {
    return host.send(operationId, pathId, headers);
  }

  List<Exchange> exchanges() {
    return host.exchanges();
  }

  /** Creates a WorkSession at revision 1 and returns its id; fails the check if it cannot. */
  String newSession() {
    String session = id("ws");
    expectSuccess(
        host.send(
            "createWorkSession",
            null,
            headers("createWorkSession", human, ChainCursor.GENESIS),
            sessionBody(session)));
    return session;
  }

  /** A page of the WorkSession's events ({@code event-log}), read as {@code actor}. */
  Exchange events(String session, String query, String actor) {
    return host.send(
        EventLog.OPERATION.operationId(),
        session,
        query,
        readHeaders(actor),
        com.fasterxml.jackson.databind.node.MissingNode.getInstance());
  }

  /** Whether the answer declares {@code capability} in {@code Jarvis-Host-Capabilities}. */
  static boolean declares(Exchange answer, String capability) {
    return answer
        .responseHeader(JarvisHeaders.HOST_CAPABILITIES)
        .map(c -> List.of(c.split("\\s*,\\s*")).contains(capability))
        .orElse(false);
  }

  /** The WorkSession's cursor as the host reports it now. */
  ChainCursor cursor(String session) {
    JsonNode record = expectSuccess(host.send("getWorkSession", session, readHeaders(human)));
    return new ChainCursor(
        record.path("revision").asLong(), record.path("last_event_hash").asText());
  }

  /** Checks the cursor headers against the cursor, when the host declares cursor-headers. */
  String cursorHeaders(Exchange answer, ChainCursor expected) {
    boolean declared =
        answer
            .responseHeader(JarvisHeaders.HOST_CAPABILITIES)
            .map(c -> List.of(c.split("\\s*,\\s*")).contains(CURSOR_HEADERS))
            .orElse(false);
    if (!declared) {
      return "no cursor-headers capability declared";
    }
    String revision = answer.responseHeader(REVISION_HEADER).orElse("(absent)");
    String hash = answer.responseHeader(LAST_HASH_HEADER).orElse("(absent)");
    if (!revision.equals(Long.toString(expected.revision()))
        || !hash.equals(expected.lastEventHash())) {
      throw new CheckFailure(
          "cursor headers say revision "
              + revision
              + " and hash "
              + hash
              + ", the WorkSession is at "
              + expected);
    }
    return null;
  }

  /** A human's {@code note.recorded} event linked to {@code linkedTo}. */
  ObjectNode noteEvent(String session, ChainCursor linkedTo) {
    return EventChain.next(
        linkedTo, SampleRecords.eventDraft(id("evt"), session, human, "note.recorded", now()));
  }

  /** Appends {@code event} as the human, sending {@code at} as the cursor. */
  Exchange appendEvent(String session, ChainCursor at, JsonNode event) {
    return send("appendJarvisEvent", session, headers("appendJarvisEvent", human, at), event);
  }

  Map<String, String> headers(String operationId, String actor, ChainCursor cursor) {
    var operationClass = ProtocolOperations.byId(operationId).operationClass();
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(JarvisHeaders.PROTOCOL_VERSION, JarvisSpec.PROTOCOL_VERSION);
    headers.put(JarvisHeaders.ACTOR_ID, actor);
    if (operationClass.isMutation()) {
      headers.put(JarvisHeaders.IDEMPOTENCY_KEY, "conformance-" + ids.get());
      headers.put(JarvisHeaders.REQUEST_TIMESTAMP, now());
    }
    if (operationClass.needsCursor()) {
      headers.put(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION, Long.toString(cursor.revision()));
      headers.put(JarvisHeaders.PREVIOUS_EVENT_HASH, cursor.lastEventHash());
    }
    return headers;
  }

  Map<String, String> readHeaders(String actor) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(JarvisHeaders.PROTOCOL_VERSION, JarvisSpec.PROTOCOL_VERSION);
    headers.put(JarvisHeaders.ACTOR_ID, actor);
    return headers;
  }

  ObjectNode sessionBody(String session) {
    return SampleRecords.workSession(session, human, humanWorker, agentWorker, policy, now());
  }

  ObjectNode decision(String session, String actor) {
    return SampleRecords.policyDecision(id("pd"), session, actor, policy, now());
  }

  static String missingId(String header) {
    return switch (header) {
      case JarvisHeaders.PROTOCOL_VERSION -> "missing_protocol_version";
      case JarvisHeaders.ACTOR_ID -> "missing_actor";
      case JarvisHeaders.IDEMPOTENCY_KEY -> "missing_idempotency_key";
      case JarvisHeaders.REQUEST_TIMESTAMP -> "missing_request_timestamp";
      case JarvisHeaders.EXPECTED_WORK_SESSION_REVISION -> "missing_expected_work_session_revision";
      case JarvisHeaders.PREVIOUS_EVENT_HASH -> "missing_previous_event_hash";
      default -> throw new IllegalArgumentException(header);
    };
  }

  /** The record factories acting as {@code actor}, on the suite's clock and ids. */
  ProtocolRecords records(String actor) {
    return new ProtocolRecords(clock, ids, actor);
  }

  String id(String prefix) {
    return prefix + "-" + ids.get();
  }

  /** The suite's clock now. */
  java.time.Instant instant() {
    return clock.instant();
  }

  String now() {
    return RequestTimestamp.format(clock.instant());
  }
}
