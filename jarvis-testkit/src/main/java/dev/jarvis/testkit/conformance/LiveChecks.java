package dev.jarvis.testkit.conformance;

import static dev.jarvis.testkit.conformance.ExchangeRules.expectNoMutationHeaderDemand;
import static dev.jarvis.testkit.conformance.ExchangeRules.expectRefusal;
import static dev.jarvis.testkit.conformance.ExchangeRules.expectSuccess;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.canonical.Sha256Hash;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.testkit.SampleRecords;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The checks against a live host. Each check sets up what it needs (fresh WorkSessions, reading the
 * cursor before every WorkSession mutation), so a host that wrongly accepts one request does not
 * make later checks fail for the wrong reason.
 */
final class LiveChecks {

  private static final String FOREIGN_HASH = "sha256:" + "0".repeat(64);
  private static final String CURSOR_HEADERS = "cursor-headers";
  private static final String REVISION_HEADER = "Jarvis-WorkSession-Revision";
  private static final String LAST_HASH_HEADER = "Jarvis-Last-Event-Hash";

  private final HostConnection host;
  private final CheckRunner runner;
  private final Supplier<String> ids;
  private final java.time.Clock clock;
  private final String registrar;
  private final String policy;
  private final String humanWorker;
  private final String agentWorker;
  private final String human;
  private final String agent;

  LiveChecks(ConformanceConfig config, HostConnection host, CheckRunner runner) {
    this.host = host;
    this.runner = runner;
    this.ids = config.ids();
    this.clock = config.clock();
    this.registrar = config.registrarActorId();
    this.policy = config.policyId();
    this.humanWorker = id("worker-human");
    this.agentWorker = id("worker-agent");
    this.human = id("actor-human");
    this.agent = id("actor-agent");
  }

  void run() {
    setup();
    mutationHeaders();
    readHeaders();
    genesis();
    chain();
    appendedEvents();
    idempotency();
    idMatching();
    export();
    everyAnswer();
  }

  // --- groups -----------------------------------------------------------------------------------

  private void setup() {
    String group = "setup";
    runner.check(
        group,
        "registerWorker accepts a human Worker",
        () -> register("registerWorker", humanWorker, SampleRecords.worker(humanWorker, "human")));
    runner.check(
        group,
        "registerWorker accepts an agent Worker",
        () -> register("registerWorker", agentWorker, SampleRecords.worker(agentWorker, "agent")));
    runner.check(
        group,
        "registerActor accepts a human Actor",
        () ->
            register(
                "registerActor", human, SampleRecords.actor(human, humanWorker, "human", now())));
    runner.check(
        group,
        "registerActor accepts an agent Actor",
        () ->
            register(
                "registerActor", agent, SampleRecords.actor(agent, agentWorker, "agent", now())));
  }

  private String register(String operationId, String id, ObjectNode body) {
    JsonNode answer =
        expectSuccess(host.send(operationId, id, headers(operationId, registrar, null), body));
    if (!answer.path("id").asText().equals(id)) {
      throw new CheckFailure(operationId + " answered a record with id " + answer.path("id"));
    }
    return null;
  }

  private void mutationHeaders() {
    String group = "headers";
    for (String header :
        JarvisHeaders.required(ProtocolOperations.byId("registerWorker").operationClass())) {
      runner.check(
          group,
          "registerWorker without " + header + " is refused with " + missingId(header),
          () -> {
            String worker = id("worker-headers");
            Map<String, String> headers = headers("registerWorker", registrar, null);
            headers.remove(header);
            expectRefusal(
                host.send("registerWorker", worker, headers, SampleRecords.worker(worker, "agent")),
                missingId(header));
            return null;
          });
    }
    for (String header : JarvisHeaders.MUTATION) {
      runner.check(
          group,
          "createWorkSession without " + header + " is refused with " + missingId(header),
          () -> {
            Map<String, String> headers = headers("createWorkSession", human, ChainCursor.GENESIS);
            headers.remove(header);
            expectRefusal(
                host.send("createWorkSession", null, headers, sessionBody(id("ws-headers"))),
                missingId(header));
            return null;
          });
    }
    for (String header : JarvisHeaders.MUTATION) {
      runner.check(
          group,
          "recordPolicyDecision without " + header + " is refused with " + missingId(header),
          () -> {
            String session = newSession();
            Map<String, String> headers = headers("recordPolicyDecision", agent, cursor(session));
            headers.remove(header);
            expectRefusal(
                host.send("recordPolicyDecision", session, headers, decision(session, agent)),
                missingId(header));
            return null;
          });
    }
  }

  private void readHeaders() {
    String group = "reads";
    runner.check(
        group,
        "getWorkSession needs no mutation headers",
        () -> {
          String session = newSession();
          Exchange read = host.send("getWorkSession", session, readHeaders(human));
          expectSuccess(read);
          return null;
        });
    runner.check(
        group,
        "exportEvidenceManifest needs no mutation headers",
        () -> {
          String session = newSession();
          expectNoMutationHeaderDemand(
              host.send("exportEvidenceManifest", session, readHeaders(human)));
          return null;
        });
    for (String header : List.of(JarvisHeaders.PROTOCOL_VERSION, JarvisHeaders.ACTOR_ID)) {
      runner.check(
          group,
          "getWorkSession without " + header + " is refused with " + missingId(header),
          () -> {
            String session = newSession();
            Map<String, String> headers = readHeaders(human);
            headers.remove(header);
            expectRefusal(host.send("getWorkSession", session, headers), missingId(header));
            return null;
          });
    }
  }

  private void genesis() {
    String group = "genesis";
    runner.check(
        group,
        "createWorkSession at revision 0 with the genesis hash starts the WorkSession at revision 1",
        () -> {
          String session = id("ws");
          Exchange created =
              host.send(
                  "createWorkSession",
                  null,
                  headers("createWorkSession", human, ChainCursor.GENESIS),
                  sessionBody(session));
          JsonNode record = expectSuccess(created);
          if (record.path("revision").asLong() != 1) {
            throw new CheckFailure(
                "the new WorkSession is at revision " + record.path("revision") + ", not 1");
          }
          if (!record.path("status").asText().equals("active")) {
            throw new CheckFailure(
                "the new WorkSession is " + record.path("status") + ", not active");
          }
          String last = record.path("last_event_hash").asText();
          if (last.isEmpty() || last.equals(Sha256Hash.GENESIS)) {
            throw new CheckFailure("the new WorkSession's last_event_hash is '" + last + "'");
          }
          return cursorHeaders(created, new ChainCursor(1, last));
        });
    runner.check(
        group,
        "createWorkSession at revision 1 is refused with stale_work_session_revision",
        () -> {
          expectRefusal(
              host.send(
                  "createWorkSession",
                  null,
                  headers("createWorkSession", human, new ChainCursor(1, Sha256Hash.GENESIS)),
                  sessionBody(id("ws"))),
              "stale_work_session_revision");
          return null;
        });
    runner.check(
        group,
        "createWorkSession with another previous hash is refused with invalid_previous_event_hash",
        () -> {
          expectRefusal(
              host.send(
                  "createWorkSession",
                  null,
                  headers("createWorkSession", human, new ChainCursor(0, FOREIGN_HASH)),
                  sessionBody(id("ws"))),
              "invalid_previous_event_hash");
          return null;
        });
  }

  private void chain() {
    String group = "chain";
    runner.check(
        group,
        "a scoped mutation at the current cursor advances the revision by one",
        () -> {
          String session = newSession();
          ChainCursor before = cursor(session);
          Exchange recorded =
              host.send(
                  "recordPolicyDecision",
                  session,
                  headers("recordPolicyDecision", agent, before),
                  decision(session, agent));
          expectSuccess(recorded);
          ChainCursor after = cursor(session);
          if (after.revision() != before.revision() + 1) {
            throw new CheckFailure(
                "revision went from " + before.revision() + " to " + after.revision());
          }
          if (after.lastEventHash().equals(before.lastEventHash())) {
            throw new CheckFailure("last_event_hash did not change");
          }
          return cursorHeaders(recorded, after);
        });
    runner.check(
        group,
        "a scoped mutation at a stale revision is refused with stale_work_session_revision",
        () -> {
          String session = newSession();
          ChainCursor first = cursor(session);
          expectSuccess(
              host.send(
                  "recordPolicyDecision",
                  session,
                  headers("recordPolicyDecision", agent, first),
                  decision(session, agent)));
          expectRefusal(
              host.send(
                  "recordPolicyDecision",
                  session,
                  headers("recordPolicyDecision", agent, first),
                  decision(session, agent)),
              "stale_work_session_revision");
          return null;
        });
    runner.check(
        group,
        "a scoped mutation with a wrong previous hash is refused with invalid_previous_event_hash",
        () -> {
          String session = newSession();
          ChainCursor wrong = new ChainCursor(cursor(session).revision(), FOREIGN_HASH);
          expectRefusal(
              host.send(
                  "recordPolicyDecision",
                  session,
                  headers("recordPolicyDecision", agent, wrong),
                  decision(session, agent)),
              "invalid_previous_event_hash");
          return null;
        });
  }

  private void appendedEvents() {
    String group = "events";
    runner.check(
        group,
        "appendJarvisEvent accepts an event that continues the chain",
        () -> {
          String session = newSession();
          ChainCursor at = cursor(session);
          ObjectNode event =
              EventChain.next(
                  at, SampleRecords.eventDraft(id("evt"), session, human, "note.recorded", now()));
          expectSuccess(
              host.send(
                  "appendJarvisEvent", session, headers("appendJarvisEvent", human, at), event));
          ChainCursor after = cursor(session);
          if (!after.equals(at.advance(event.path("event_hash").asText()))) {
            throw new CheckFailure(
                "after the event the WorkSession is at " + after + ", not at the event's hash");
          }
          return null;
        });
    runner.check(
        group,
        "appendJarvisEvent refuses an event whose previous_hash is not the last event hash with invalid_previous_event_hash",
        () -> {
          String session = newSession();
          ChainCursor at = cursor(session);
          ObjectNode event =
              EventChain.next(
                  new ChainCursor(at.revision(), FOREIGN_HASH),
                  SampleRecords.eventDraft(id("evt"), session, human, "note.recorded", now()));
          expectRefusal(
              host.send(
                  "appendJarvisEvent", session, headers("appendJarvisEvent", human, at), event),
              "invalid_previous_event_hash");
          return null;
        });
    runner.check(
        group,
        "appendJarvisEvent refuses an event whose event_hash does not cover it with invalid_event_hash",
        () -> {
          String session = newSession();
          ChainCursor at = cursor(session);
          ObjectNode event =
              EventChain.next(
                  at, SampleRecords.eventDraft(id("evt"), session, human, "note.recorded", now()));
          event.put("event_hash", FOREIGN_HASH);
          expectRefusal(
              host.send(
                  "appendJarvisEvent", session, headers("appendJarvisEvent", human, at), event),
              "invalid_event_hash");
          return null;
        });
  }

  private void idempotency() {
    String group = "idempotency";
    runner.check(
        group,
        "a replay with the same key and body gets the same answer and appends nothing",
        () -> {
          String session = newSession();
          ChainCursor at = cursor(session);
          Map<String, String> headers = headers("recordPolicyDecision", agent, at);
          ObjectNode body = decision(session, agent);
          Exchange first = host.send("recordPolicyDecision", session, headers, body);
          expectSuccess(first);
          ChainCursor afterFirst = cursor(session);
          headers.put(JarvisHeaders.REQUEST_TIMESTAMP, now());
          Exchange replay = host.send("recordPolicyDecision", session, headers, body);
          if (replay.status() != first.status() || !replay.body().equals(first.body())) {
            throw new CheckFailure(
                "the replay was answered "
                    + replay.status()
                    + " "
                    + replay.bodyExcerpt()
                    + ", the first call "
                    + first.status());
          }
          if (!cursor(session).equals(afterFirst)) {
            throw new CheckFailure("the replay moved the WorkSession on");
          }
          return null;
        });
    runner.check(
        group,
        "the same key with another body is refused with duplicate_idempotency_key_mismatch",
        () -> {
          String session = newSession();
          Map<String, String> headers = headers("recordPolicyDecision", agent, cursor(session));
          expectSuccess(
              host.send("recordPolicyDecision", session, headers, decision(session, agent)));
          expectRefusal(
              host.send("recordPolicyDecision", session, headers, decision(session, agent)),
              "duplicate_idempotency_key_mismatch");
          return null;
        });
  }

  private void idMatching() {
    String group = "matching";
    runner.check(
        group,
        "registerWorker with a body id other than the path id is refused with path_body_id_mismatch",
        () -> {
          expectRefusal(
              host.send(
                  "registerWorker",
                  id("worker-path"),
                  headers("registerWorker", registrar, null),
                  SampleRecords.worker(id("worker-body"), "agent")),
              "path_body_id_mismatch");
          return null;
        });
    runner.check(
        group,
        "recordPolicyDecision for another WorkSession than the path's is refused with path_body_id_mismatch",
        () -> {
          String session = newSession();
          expectRefusal(
              host.send(
                  "recordPolicyDecision",
                  session,
                  headers("recordPolicyDecision", agent, cursor(session)),
                  decision(id("ws-other"), agent)),
              "path_body_id_mismatch");
          return null;
        });
    runner.check(
        group,
        "recordPolicyDecision by another Actor than Jarvis-Actor-Id is refused with actor_body_id_mismatch",
        () -> {
          String session = newSession();
          expectRefusal(
              host.send(
                  "recordPolicyDecision",
                  session,
                  headers("recordPolicyDecision", human, cursor(session)),
                  decision(session, agent)),
              "actor_body_id_mismatch");
          return null;
        });
    runner.check(
        group,
        "createWorkSession created by another Actor than Jarvis-Actor-Id is refused with actor_body_id_mismatch",
        () -> {
          expectRefusal(
              host.send(
                  "createWorkSession",
                  null,
                  headers("createWorkSession", agent, ChainCursor.GENESIS),
                  sessionBody(id("ws"))),
              "actor_body_id_mismatch");
          return null;
        });
  }

  private void export() {
    String group = "export";
    runner.check(
        group,
        "exportEvidenceManifest of an active WorkSession is refused with invalid_export_state",
        () -> {
          String session = newSession();
          expectRefusal(
              host.send("exportEvidenceManifest", session, readHeaders(human)),
              "invalid_export_state");
          return null;
        });
    runner.check(
        group,
        "exportEvidenceManifest of a completed WorkSession returns its EvidenceManifest",
        () -> {
          String session = newSession();
          ChainCursor at = cursor(session);
          ObjectNode note =
              EventChain.next(
                  at, SampleRecords.eventDraft(id("evt"), session, human, "note.recorded", now()));
          expectSuccess(
              host.send(
                  "appendJarvisEvent", session, headers("appendJarvisEvent", human, at), note));
          at = cursor(session);
          ObjectNode contribution =
              SampleRecords.contribution(
                  id("contribution"), session, agentWorker, agent, note.path("id").asText(), now());
          expectSuccess(
              host.send(
                  "recordContribution",
                  session,
                  headers("recordContribution", agent, at),
                  contribution));
          at = cursor(session);
          ObjectNode completed =
              EventChain.next(
                  at,
                  SampleRecords.eventDraft(
                      id("evt"), session, human, "work_session.completed", now()));
          expectSuccess(
              host.send(
                  "appendJarvisEvent",
                  session,
                  headers("appendJarvisEvent", human, at),
                  completed));
          JsonNode manifest =
              expectSuccess(host.send("exportEvidenceManifest", session, readHeaders(human)));
          if (!manifest.path("work_session_id").asText().equals(session)) {
            throw new CheckFailure(
                "the manifest is for WorkSession " + manifest.path("work_session_id"));
          }
          return null;
        });
  }

  private void everyAnswer() {
    String group = "answers";
    List<Exchange> all = host.exchanges();
    runner.check(
        group,
        "every answer carries Jarvis-Protocol-Version: v0.1",
        () -> {
          List<String> defects =
              all.stream()
                  .map(ExchangeRules::protocolVersionDefect)
                  .flatMap(Optional::stream)
                  .toList();
          if (!defects.isEmpty()) {
            throw new CheckFailure(
                defects.size() + " of " + all.size() + " answers, first: " + defects.get(0));
          }
          return all.size() + " answers";
        });
    runner.check(
        group,
        "every refusal is HTTP 400 with a valid ProtocolError",
        () -> {
          List<Exchange> refusals = all.stream().filter(e -> e.status() / 100 != 2).toList();
          for (Exchange refusal : refusals) {
            if (refusal.status() != 400 || !ExchangeRules.bodyViolations(refusal).isEmpty()) {
              throw new CheckFailure(
                  refusal.operationId()
                      + " answered "
                      + refusal.status()
                      + " "
                      + refusal.bodyExcerpt());
            }
          }
          return refusals.size() + " refusals";
        });
    runner.check(
        group,
        "every success body is valid against its response schema",
        () -> {
          for (Exchange success : all.stream().filter(e -> e.status() / 100 == 2).toList()) {
            if (!ExchangeRules.bodyViolations(success).isEmpty()) {
              throw new CheckFailure(
                  success.operationId() + ": " + ExchangeRules.bodyViolations(success).get(0));
            }
          }
          return null;
        });
  }

  // --- helpers ----------------------------------------------------------------------------------

  /** Creates a WorkSession at revision 1 and returns its id; fails the check if it cannot. */
  private String newSession() {
    String session = id("ws");
    expectSuccess(
        host.send(
            "createWorkSession",
            null,
            headers("createWorkSession", human, ChainCursor.GENESIS),
            sessionBody(session)));
    return session;
  }

  /** The WorkSession's cursor as the host reports it now. */
  private ChainCursor cursor(String session) {
    JsonNode record = expectSuccess(host.send("getWorkSession", session, readHeaders(human)));
    return new ChainCursor(
        record.path("revision").asLong(), record.path("last_event_hash").asText());
  }

  /** Checks the cursor headers against the cursor, when the host declares cursor-headers. */
  private String cursorHeaders(Exchange answer, ChainCursor expected) {
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

  private Map<String, String> headers(String operationId, String actor, ChainCursor cursor) {
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

  private Map<String, String> readHeaders(String actor) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(JarvisHeaders.PROTOCOL_VERSION, JarvisSpec.PROTOCOL_VERSION);
    headers.put(JarvisHeaders.ACTOR_ID, actor);
    return headers;
  }

  private ObjectNode sessionBody(String session) {
    return SampleRecords.workSession(session, human, humanWorker, agentWorker, policy, now());
  }

  private ObjectNode decision(String session, String actor) {
    return SampleRecords.policyDecision(id("pd"), session, actor, policy, now());
  }

  private static String missingId(String header) {
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

  private String id(String prefix) {
    return prefix + "-" + ids.get();
  }

  private String now() {
    return RequestTimestamp.format(clock.instant());
  }
}
