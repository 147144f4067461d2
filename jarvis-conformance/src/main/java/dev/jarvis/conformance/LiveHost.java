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
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.samples.SampleRecords;
import java.time.Clock;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The host under test as the live checks see it: the connection, the Workers and Actors the suite
 * registered, fresh ids and times, and the requests a correct client would send. Each check builds
 * its own WorkSessions with {@link #newSession()} and reads the cursor with {@link #cursor} before
 * every WorkSession mutation, so a host that wrongly accepts one request does not make later checks
 * fail for the wrong reason. Where the suite cannot open a WorkSession at all (the setup check says
 * why), the checks that need one are skipped rather than failed for a reason not theirs.
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
  final SuitePolicy suitePolicy;
  final Optional<String> foreignPolicy;
  final String runPrefix;
  final String humanWorker;
  final String agentWorker;
  final String human;
  final String agent;
  final String outsiderWorker;
  final String outsider;
  // Whether the suite can act as the outsider: always with one token for every Actor, only with an
  // outsider credential when each role has its own.
  final boolean outsiderActs;

  /** Whether the suite can open a WorkSession on this host (the setup check says). */
  private volatile Optional<String> cannotOpenSessions = Optional.empty();

  /** Answers a capability check judged already, which the answer checks leave out. */
  private final Set<Exchange> judged = Collections.newSetFromMap(new IdentityHashMap<>());

  LiveHost(ConformanceConfig config, SuiteExchanges host) {
    this.host = host;
    this.ids = config.ids();
    this.clock = config.clock();
    this.registrar = config.registrarActorId();
    this.policy = config.policyId();
    this.suitePolicy = SuitePolicy.of(config);
    this.foreignPolicy = config.foreignPolicyId();
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
    this.outsiderActs = roles.isEmpty() || roles.flatMap(RoleCredentials::outsider).isPresent();
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

  /**
   * Creates a WorkSession at revision 1 and returns its id; fails the check if it cannot, and skips
   * it where the setup check found the suite cannot open WorkSessions on this host at all.
   */
  String newSession() {
    requireSessions();
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

  /** A page of {@code actor}'s inbox ({@code request-inbox}). */
  Exchange inbox(String query, String actor) {
    return host.send(
        dev.jarvis.core.requestinbox.RequestInbox.OPERATION.operationId(),
        null,
        query,
        readHeaders(actor),
        com.fasterxml.jackson.databind.node.MissingNode.getInstance());
  }

  /**
   * Opens the WorkSession's {@code event-stream} read as {@code actor}, with the read headers and
   * {@code extra} ({@code Last-Event-ID}).
   */
  EventStreamConnection stream(
      String session, String query, String actor, Map<String, String> extra) {
    Map<String, String> headers = readHeaders(actor);
    headers.putAll(extra);
    return host.openStream(session, query, headers);
  }

  /** Whether the answer declares {@code capability} in {@code Jarvis-Host-Capabilities}. */
  static boolean declares(Exchange answer, String capability) {
    return answer
        .responseHeader(JarvisHeaders.HOST_CAPABILITIES)
        .map(c -> List.of(c.split("\\s*,\\s*")).contains(capability))
        .orElse(false);
  }

  /** Whether any answer of the run so far declares {@code capability}. */
  boolean declares(String capability) {
    return exchanges().stream().anyMatch(e -> declares(e, capability));
  }

  /** Skips the check where the suite cannot open a WorkSession on this host. */
  void requireSessions() {
    cannotOpenSessions.ifPresent(
        why -> {
          throw new CheckSkipped(why);
        });
  }

  /** From now on, the checks that need a WorkSession are skipped, for this reason. */
  void cannotOpenSessions(String why) {
    cannotOpenSessions = Optional.of(why);
  }

  /** Leaves {@code answer} to the capability check that judged it, out of the answer checks. */
  void judged(Exchange answer) {
    judged.add(answer);
  }

  /** Every exchange of the run but those a capability check judged. */
  List<Exchange> unjudgedExchanges() {
    return exchanges().stream().filter(e -> !judged.contains(e)).toList();
  }

  /** The WorkSession's cursor as the host reports it now. */
  ChainCursor cursor(String session) {
    JsonNode record = expectSuccess(host.send("getWorkSession", session, readHeaders(human)));
    return new ChainCursor(
        record.path("revision").asLong(), record.path("last_event_hash").asText());
  }

  /**
   * Checks the cursor headers against the cursor, when the host declares cursor-headers and sends
   * them; a declared capability whose headers are absent is the {@code cursor-headers} check's to
   * fail.
   */
  String cursorHeaders(Exchange answer, ChainCursor expected) {
    if (!declares(answer, CURSOR_HEADERS)) {
      return "no cursor-headers capability declared";
    }
    if (answer.responseHeader(REVISION_HEADER).isEmpty()
        && answer.responseHeader(LAST_HASH_HEADER).isEmpty()) {
      return "cursor-headers declared, no cursor headers sent: see the cursor-headers check";
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
    return sessionBody(session, human, policy);
  }

  /** The body of a WorkSession of the suite's Workers, created by {@code creator}. */
  ObjectNode sessionBody(String session, String creator, String policyId) {
    return SampleRecords.workSession(session, creator, humanWorker, agentWorker, policyId, now());
  }

  /**
   * A decision every Policy admits, for the checks about anything but the Policy: {@code deny} (the
   * strictest result, which a decision may always give) of an action the Policy does not name,
   * naming the Request it would open.
   */
  ObjectNode decision(String session, String actor) {
    return decision(session, actor, suitePolicy.actions().unnamed(), PolicyDecisionResult.DENY);
  }

  /**
   * The decision of {@code actor} on {@code action} at its risk class, with the result given,
   * naming a Request where the result must ({@code deny}, {@code review_required}).
   */
  ObjectNode decision(
      String session, String actor, PolicyActions.Action action, PolicyDecisionResult result) {
    var decision =
        records(actor)
            .policyDecision(
                session,
                policy,
                action.request(),
                action.risk(),
                result,
                "The conformance suite decides " + action.name() + ".")
            .id(id("pd"));
    if (result == PolicyDecisionResult.DENY || result == PolicyDecisionResult.REVIEW_REQUIRED) {
      decision.requestId(id("req"));
    }
    ObjectNode tree = dev.jarvis.core.JarvisJson.mapper().valueToTree(decision);
    tree.put("created_at", now());
    return tree;
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
