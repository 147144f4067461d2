package dev.jarvis.host.reference;

import static dev.jarvis.host.reference.Steps.agentEvent;
import static dev.jarvis.host.reference.Steps.append;
import static dev.jarvis.host.reference.Steps.approved;
import static dev.jarvis.host.reference.Steps.complete;
import static dev.jarvis.host.reference.Steps.created;
import static dev.jarvis.host.reference.Steps.decisionAndRequest;
import static dev.jarvis.host.reference.Steps.genesisEvent;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.JarvisStaleSessionException;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.OperationClass;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.error.JarvisProtocolException;
import dev.jarvis.core.error.ProtocolErrorCatalog;
import dev.jarvis.core.hash.EventHash;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.host.HostConfig;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.WorkSession;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 28 item 3: every remediation is true where it is raised. For each {@code error_id}, each
 * place that raises it is provoked on a reference host on loopback (or through the client, for the
 * client's own refusals); the refusal must carry the id, come from an operation whose class the
 * catalogue lists for it, and its remediation must hold there: followed literally, the retried
 * request succeeds, or, where following it cannot succeed by design, the text names no other Actor
 * and no host-private data. Each walk pins the words of the remediation it follows, so a text that
 * changes its advice fails the walk that followed the old one.
 */
class RemediationWalkTest {

  private static final String WS_PATH = "/work-sessions/" + Payloads.WS;

  /**
   * Ids no refusal raises to a caller, and why; every other id must be walked. The first two are
   * raised nowhere (checked against the sources below); the others only describe an
   * EvidenceManifest, which the host builds itself and the client judges as an answer or in an
   * audit finding, neither of which is a refusal with a remediation to follow.
   */
  private static final Map<ProtocolErrorId, String> NOT_RAISED_TO_A_CALLER =
      new EnumMap<>(
          Map.of(
              ProtocolErrorId.MISSING_BLOCKED_SCOPE_RESOLUTION_REFS,
                  "raised nowhere: the host resolves blocked scopes itself",
              ProtocolErrorId.FORBIDDEN_EXPORT_FIELD,
                  "raised nowhere: forbidden fields are refused on arrival as"
                      + " forbidden_host_private_field",
              ProtocolErrorId.INVALID_EXPORT,
                  "only if the manifest the host built fails the spec (defensive), or as an"
                      + " audit finding",
              ProtocolErrorId.MISSING_EVIDENCE_EVENT_REFS,
                  "only of a manifest: the host lists every event; an audit finding",
              ProtocolErrorId.DUPLICATE_EVIDENCE_ITEM_REF,
                  "only of a manifest: the host builds one evidence item"));

  /** What following a remediation does, or why it cannot succeed. */
  record Remedy(
      String says,
      String promise,
      Optional<BiFunction<TestHost, JsonNode, Answer>> follow,
      String actingActor) {

    /** Followed literally, the retry succeeds. */
    static Remedy follow(String says, String promise, BiFunction<TestHost, JsonNode, Answer> f) {
      return new Remedy(says, promise, Optional.of(f), "");
    }

    /**
     * Following it cannot succeed for this caller by design: the text must only say what's true.
     */
    static Remedy cannot(String says, String promise, String actingActor) {
      return new Remedy(says, promise, Optional.empty(), actingActor);
    }
  }

  /**
   * One place that raises an id, walked.
   *
   * @param provoke answers the ProtocolError the caller received
   */
  record Walk(
      ProtocolErrorId id,
      String operationId,
      String place,
      Supplier<TestHost> host,
      Function<TestHost, Object> provoke,
      Remedy remedy) {

    @Override
    public String toString() {
      return id.getValue() + " at " + operationId + " (" + place + "): " + remedy.says();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("walks")
  void theRemediationIsTrueWhereItIsRaised(Walk walk) {
    try (TestHost t = walk.host().get()) {
      Object provoked = walk.provoke().apply(t);
      JsonNode refusal = provoked instanceof Answer a ? http(a) : (JsonNode) provoked;
      assertEquals(walk.id().getValue(), refusal.path("error_id").asText(), refusal.toString());
      OperationClass operationClass = ProtocolOperations.byId(walk.operationId()).operationClass();
      assertTrue(
          ProtocolErrorCatalog.operationClasses(walk.id()).contains(operationClass),
          walk.operationId() + " is " + operationClass + ", not in the catalogue's row");
      String remediation = refusal.path("remediation").asText();
      assertTrue(
          remediation.contains(walk.remedy().promise()),
          "the remediation no longer says what the walk follows ("
              + walk.remedy().promise()
              + "): "
              + remediation);
      if (walk.remedy().follow().isPresent()) {
        Answer retried = walk.remedy().follow().get().apply(t, refusal);
        assertTrue(
            retried.status() >= 200 && retried.status() < 300,
            "followed, the remediation did not succeed: "
                + retried.status()
                + " "
                + retried.text());
      } else {
        saysOnlyWhatIsTrue(refusal, walk.remedy().actingActor());
      }
    } finally {
      Optional.ofNullable(CLIENTS.remove(Thread.currentThread())).ifPresent(JarvisClient::close);
    }
  }

  /** Names no Actor but the caller, and no host-private word of the spec's list. */
  private static void saysOnlyWhatIsTrue(JsonNode refusal, String actingActor) {
    String text = refusal.path("reason").asText() + " " + refusal.path("remediation").asText();
    Matcher actors = Pattern.compile("actor-[a-z0-9-]+").matcher(text);
    while (actors.find()) {
      assertEquals(actingActor, actors.group(), "names another Actor: " + text);
    }
    for (String word : hostPrivateWords()) {
      assertFalse(text.toLowerCase(Locale.ROOT).contains(word), "names host-private data: " + text);
    }
  }

  private static List<String> hostPrivateWords() {
    String pattern =
        JarvisSpec.tree()
            .at("/components/schemas/NamespacedExtensions/propertyNames/pattern")
            .asText();
    Matcher m = Pattern.compile("\\(\\?!\\.\\*\\(([a-z0-9_|]+)\\)\\)").matcher(pattern);
    assertTrue(m.find(), "no host-private word list in the spec: " + pattern);
    return List.of(m.group(1).split("\\|"));
  }

  @Test
  void everyErrorIdOfTheSpecIsWalkedOrNamedAsRaisedToNoCaller() {
    Set<ProtocolErrorId> walked =
        walks()
            .map(Walk::id)
            .collect(Collectors.toCollection(() -> EnumSet.noneOf(ProtocolErrorId.class)));
    for (ProtocolErrorId id : ProtocolErrorId.values()) {
      assertTrue(
          walked.contains(id) ^ NOT_RAISED_TO_A_CALLER.containsKey(id),
          id.getValue()
              + (walked.contains(id)
                  ? " is walked and also named as raised to no caller"
                  : " is raised somewhere nobody walks: add a walk for each place that raises it"));
    }
  }

  @Test
  void theIdsRaisedNowhereAreRaisedByNoSource() throws IOException {
    List<ProtocolErrorId> nowhere =
        List.of(
            ProtocolErrorId.MISSING_BLOCKED_SCOPE_RESOLUTION_REFS,
            ProtocolErrorId.FORBIDDEN_EXPORT_FIELD);
    for (String module : List.of("jarvis-model", "jarvis-host-kit", "jarvis-client")) {
      Path root = Path.of("..", module, "src", "main", "java");
      List<Path> sources;
      try (Stream<Path> files = Files.walk(root)) {
        sources =
            files
                .filter(p -> p.toString().endsWith(".java"))
                .filter(p -> !p.endsWith("ProtocolErrorCatalog.java"))
                .toList();
      }
      for (Path source : sources) {
        String text = Files.readString(source);
        for (ProtocolErrorId id : nowhere) {
          assertFalse(
              text.contains(id.name()) || text.contains("\"" + id.getValue() + "\""),
              source + " raises " + id.getValue() + ": walk it");
        }
      }
    }
  }

  // --- the walks ---

  static Stream<Walk> walks() {
    List<Walk> all = new ArrayList<>();
    headers(all);
    authority(all);
    sessionCursor(all);
    records(all);
    policyAndRequests(all);
    reviewsAndApprovals(all);
    takeovers(all);
    contributionsAndLearning(all);
    endAndExport(all);
    payloadRules(all);
    outsideTheProtocol(all);
    client(all);
    return all.stream();
  }

  private static void headers(List<Walk> all) {
    all.add(
        walk(
            ProtocolErrorId.MISSING_PROTOCOL_VERSION,
            "getWorkSession",
            "header parser",
            t -> read(t, h -> without(h, "Jarvis-Protocol-Version")),
            Remedy.follow(
                "sending the version succeeds",
                "Send Jarvis-Protocol-Version: v0.1",
                (t, e) -> read(t, h -> h))));
    all.add(
        walk(
            ProtocolErrorId.UNSUPPORTED_PROTOCOL_VERSION,
            "getWorkSession",
            "header parser",
            t -> read(t, h -> with(h, "Jarvis-Protocol-Version", "v0.2")),
            Remedy.follow(
                "sending v0.1 succeeds",
                "Send Jarvis-Protocol-Version: v0.1",
                (t, e) -> read(t, h -> h))));
    all.add(
        walk(
            ProtocolErrorId.MISSING_ACTOR,
            "getWorkSession",
            "header parser",
            t -> read(t, h -> without(h, "Jarvis-Actor-Id")),
            Remedy.follow(
                "sending the acting Actor's id succeeds",
                "Send the acting Actor's Jarvis id in Jarvis-Actor-Id",
                (t, e) -> read(t, h -> h))));
    all.add(
        walk(
            ProtocolErrorId.UNSUPPORTED_CAPABILITY,
            "getWorkSession",
            "RequestGuard",
            t -> read(t, h -> with(h, "Jarvis-Required-Capabilities", "teleportation")),
            Remedy.follow(
                "requiring only what the host lists succeeds",
                "Require only capabilities the host lists in Jarvis-Host-Capabilities",
                (t, e) -> {
                  String listed =
                      t.get(WS_PATH, Payloads.HUMAN).header("Jarvis-Host-Capabilities").orElse("");
                  return read(
                      t,
                      h -> listed.isBlank() ? h : with(h, "Jarvis-Required-Capabilities", listed));
                })));
    all.add(
        walk(
            ProtocolErrorId.INVALID_EXTENSION_NAMESPACE,
            "getWorkSession",
            "header parser",
            t -> read(t, h -> with(h, "Jarvis-Extensions", "Example_Feature")),
            Remedy.follow(
                "a lowercase dotted namespace succeeds",
                "lowercase dot-separated segments such as com.example.feature",
                (t, e) -> read(t, h -> with(h, "Jarvis-Extensions", "com.example.feature")))));
    all.add(
        walk(
            ProtocolErrorId.MISSING_REQUEST_TIMESTAMP,
            "recordPolicyDecision",
            "header parser",
            t -> decide(t, h -> without(h, "Jarvis-Request-Timestamp"), allowSummarize()),
            Remedy.follow(
                "stamping the request succeeds",
                "Send Jarvis-Request-Timestamp as an RFC 3339 UTC date-time",
                (t, e) -> decide(t, h -> h, allowSummarize()))));
    all.add(
        walk(
            ProtocolErrorId.STALE_REQUEST_TIMESTAMP,
            "recordPolicyDecision",
            "header parser",
            t ->
                decide(
                    t,
                    h ->
                        with(
                            h,
                            "Jarvis-Request-Timestamp",
                            RequestTimestamp.format(t.clock.instant().minusSeconds(301))),
                    allowSummarize()),
            Remedy.follow(
                "stamping the retry with the time it is sent succeeds",
                "stamp every attempt, retries included, with the time it is sent",
                (t, e) -> decide(t, h -> h, allowSummarize()))));
    all.add(
        walk(
            ProtocolErrorId.MISSING_IDEMPOTENCY_KEY,
            "registerWorker",
            "header parser",
            t -> registerWorker(t, h -> without(h, "Jarvis-Idempotency-Key"), "worker-agent-002"),
            Remedy.follow(
                "sending a new key succeeds",
                "Send a new unique Jarvis-Idempotency-Key",
                (t, e) -> registerWorker(t, h -> h, "worker-agent-002"))));
    all.add(
        walk(
            ProtocolErrorId.MISSING_EXPECTED_WORK_SESSION_REVISION,
            "recordPolicyDecision",
            "header parser",
            t ->
                decide(
                    t, h -> without(h, "Jarvis-Expected-WorkSession-Revision"), allowSummarize()),
            Remedy.follow(
                "sending the revision as last read succeeds",
                "Send the revision of the WorkSession as last read",
                (t, e) -> decide(t, h -> h, allowSummarize()))));
    all.add(
        walk(
            ProtocolErrorId.MISSING_PREVIOUS_EVENT_HASH,
            "recordPolicyDecision",
            "header parser",
            t -> decide(t, h -> without(h, "Jarvis-Previous-Event-Hash"), allowSummarize()),
            Remedy.follow(
                "sending the last event hash as last read succeeds",
                "Send the last_event_hash of the WorkSession as last read",
                (t, e) -> decide(t, h -> h, allowSummarize()))));
    all.add(
        walk(
            ProtocolErrorId.PATH_BODY_ID_MISMATCH,
            "registerWorker",
            "RequestGuard, x-jarvis-path-body-id-match",
            t ->
                http(
                    t.send(
                        "PUT",
                        "/workers/worker-agent-002",
                        t.mutation(TestHost.ADMIN),
                        Payloads.worker("worker-agent-003", "agent").toString())),
            Remedy.follow(
                "the same id in path and body succeeds",
                "Use the same id in the path and in the body field",
                (t, e) -> registerWorker(t, h -> h, "worker-agent-002"))));
    all.add(
        walk(
            ProtocolErrorId.ACTOR_BODY_ID_MISMATCH,
            "recordPolicyDecision",
            "RequestGuard, x-jarvis-actor-body-id-match",
            t -> {
              ObjectNode d = allowSummarize();
              d.put("actor_id", Payloads.HUMAN);
              return decide(t, h -> h, d);
            },
            Remedy.follow(
                "naming the acting Actor in the body succeeds",
                "Name the same Actor in the body's actor field as in the Jarvis-Actor-Id header",
                (t, e) -> decide(t, h -> h, allowSummarize()))));
    all.add(
        walk(
            ProtocolErrorId.DUPLICATE_IDEMPOTENCY_KEY_MISMATCH,
            "recordPolicyDecision",
            "IdempotentExecution",
            t -> {
              Map<String, String> h = t.scoped(Payloads.AGENT, t.cursor());
              created(decisionPost(t, h, allowSummarize()));
              Map<String, String> again = t.scoped(Payloads.AGENT, t.cursor());
              again.put("Jarvis-Idempotency-Key", h.get("Jarvis-Idempotency-Key"));
              return http(decisionPost(t, again, Payloads.decision("pd-2", "summarize", "allow")));
            },
            Remedy.follow(
                "a new key for the changed request succeeds",
                "Use a new idempotency key for a changed request",
                (t, e) -> decide(t, h -> h, Payloads.decision("pd-2", "summarize", "allow")))));
  }

  private static void authority(List<Walk> all) {
    all.add(
        walk(
            ProtocolErrorId.UNAUTHORIZED_ACTOR,
            "getWorkSession",
            "RequestGuard, HostAuth (401)",
            t -> read(t, h -> with(h, "Authorization", "Bearer not-the-token")),
            Remedy.follow(
                "sending the credential the host accepts succeeds",
                "Send the credential this host accepts in the Authorization header",
                (t, e) -> read(t, h -> h))));
    all.add(
        walk(
            ProtocolErrorId.UNAUTHORIZED_ACTOR,
            "getWorkSession",
            "ActorAuthority.checkPrincipal, another Actor's credential",
            TestHost::withCredentials,
            t ->
                http(
                    t.send(
                        "GET",
                        WS_PATH,
                        with(
                            t.read(Payloads.AGENT),
                            "Authorization",
                            "Bearer " + t.tokenOf(Payloads.HUMAN)),
                        null)),
            Remedy.follow(
                "acting as the credential's own Actor succeeds",
                "Act as an Actor whose registered authority",
                (t, e) -> t.get(WS_PATH, Payloads.HUMAN))));
    all.add(
        walk(
            ProtocolErrorId.UNAUTHORIZED_ACTOR,
            "recordPolicyDecision",
            "ActorAuthority, an unregistered Actor",
            t -> {
              ObjectNode d = allowSummarize();
              d.put("actor_id", "actor-agent-002");
              return http(decisionPost(t, t.scoped("actor-agent-002", t.cursor()), d));
            },
            Remedy.follow(
                "registering the Actor first, then retrying, succeeds",
                "have that authority granted to the Actor first",
                (t, e) -> {
                  t.registerActor(
                      Payloads.actor("actor-agent-002", Payloads.AGENT_WORKER, "agent", true));
                  ObjectNode d = allowSummarize();
                  d.put("actor_id", "actor-agent-002");
                  return decisionPost(t, t.scoped("actor-agent-002", t.cursor()), d);
                })));
    all.add(
        walk(
            ProtocolErrorId.UNAUTHORIZED_ACTOR,
            "registerWorker",
            "ActorAuthority, registration by a non-admin",
            t ->
                http(
                    t.send(
                        "PUT",
                        "/workers/worker-agent-002",
                        t.mutation(Payloads.HUMAN),
                        Payloads.worker("worker-agent-002", "agent").toString())),
            Remedy.follow(
                "acting as the Actor with the authority (the admin) succeeds",
                "Act as an Actor whose registered authority",
                (t, e) -> registerWorker(t, h -> h, "worker-agent-002"))));
    all.add(
        walk(
            ProtocolErrorId.UNAUTHORIZED_ACTOR,
            "getWorkSession",
            "Membership.notAMember",
            RemediationWalkTest::withOutsider,
            t -> http(t.get(WS_PATH, TestHost.OUTSIDER)),
            Remedy.cannot(
                "the outsider cannot succeed; the text names no other Actor",
                "membership cover this operation",
                TestHost.OUTSIDER)));
    all.add(
        walk(
            ProtocolErrorId.UNAUTHORIZED_ACTOR,
            "createWorkSession",
            "Membership, a creator of neither Worker",
            RemediationWalkTest::withOutsider,
            t -> {
              ObjectNode ws = Payloads.workSession("ws-protocol-002");
              ws.put("created_by_actor_id", TestHost.OUTSIDER);
              return http(genesis(t, TestHost.OUTSIDER, ws, h -> h));
            },
            Remedy.follow(
                "creating it as an Actor of its Workers succeeds",
                "membership cover this operation",
                (t, e) ->
                    genesis(t, Payloads.HUMAN, Payloads.workSession("ws-protocol-002"), h -> h))));
    all.add(
        walk(
            ProtocolErrorId.UNAUTHORIZED_ACTOR,
            "createWorkSession",
            "PrincipalLimitRules, openWorkSessionsPerActor",
            () -> withSession(b -> b.openWorkSessionsPerActor(1)),
            t -> http(t.createSession("ws-protocol-002")),
            Remedy.follow(
                "completing an open WorkSession, then creating, succeeds",
                "Complete, fail or cancel one of this Actor's open WorkSessions",
                (t, e) -> {
                  created(complete(t));
                  return t.createSession("ws-protocol-002");
                })));
    all.add(
        walk(
            ProtocolErrorId.UNAUTHORIZED_ACTOR,
            "appendJarvisEvent",
            "EventAppendRule, an event type the host writes",
            TestHost::withSession,
            t ->
                http(
                    append(
                        t,
                        Payloads.HUMAN,
                        Payloads.event("event-1", "request.created", Payloads.HUMAN))),
            Remedy.cannot(
                "no Actor can append it; the text says the host writes it",
                "Leave events of this type to the host",
                Payloads.HUMAN)));
    all.add(
        walk(
            ProtocolErrorId.UNAUTHORIZED_ACTOR,
            "appendJarvisEvent",
            "EventAppendRule, an event id of the host's form",
            TestHost::withSession,
            t ->
                http(
                    append(
                        t,
                        Payloads.HUMAN,
                        Payloads.event(Payloads.WS + ".event.9", "note.added", Payloads.HUMAN))),
            Remedy.follow(
                "an id outside the host's form succeeds",
                "an id outside the form",
                (t, e) ->
                    append(
                        t,
                        Payloads.HUMAN,
                        Payloads.event("event-note-9", "note.added", Payloads.HUMAN)))));
    all.add(
        walk(
            ProtocolErrorId.UNAUTHORIZED_ACTOR,
            "recordTakeover",
            "TakeoverRule, not the controlling Actor",
            () -> {
              TestHost t = TestHost.withSession();
              t.registerActor(
                  Payloads.actor("actor-human-002", Payloads.HUMAN_WORKER, "human", true));
              created(
                  t.scopedPost(
                      "/takeovers", Payloads.HUMAN, Payloads.takeover("takeover-1", "locked", 1)));
              return t;
            },
            t -> {
              ObjectNode active = Payloads.takeover("takeover-1", "human_active", 1);
              active.put("controlling_actor_id", "actor-human-002");
              return http(t.scopedPost("/takeovers", "actor-human-002", active));
            },
            Remedy.follow(
                "the controlling Actor moving it on succeeds",
                "Act as an Actor whose registered authority",
                (t, e) ->
                    t.scopedPost(
                        "/takeovers",
                        Payloads.HUMAN,
                        Payloads.takeover("takeover-1", "human_active", 1)))));
  }

  private static void sessionCursor(List<Walk> all) {
    all.add(
        walk(
            ProtocolErrorId.STALE_WORK_SESSION_REVISION,
            "appendJarvisEvent",
            "SessionMutations",
            t -> {
              ChainCursor before = t.cursor();
              created(
                  append(
                      t, Payloads.HUMAN, Payloads.event("event-1", "note.added", Payloads.HUMAN)));
              ObjectNode draft = Payloads.event("event-2", "note.added", Payloads.HUMAN);
              draft.put("timestamp", RequestTimestamp.format(t.clock.instant()));
              return http(
                  t.send(
                      "POST",
                      WS_PATH + "/events",
                      t.scoped(Payloads.HUMAN, before),
                      EventChain.next(before, draft).toString()));
            },
            Remedy.follow(
                "re-read and retry succeeds",
                "Re-read the WorkSession, decide again on its current state, and retry",
                (t, e) ->
                    append(
                        t,
                        Payloads.HUMAN,
                        Payloads.event("event-2", "note.added", Payloads.HUMAN)))));
    all.add(
        walk(
            ProtocolErrorId.STALE_WORK_SESSION_REVISION,
            "recordPolicyDecision",
            "RequestGuard, a revision beyond any 32-bit revision",
            t ->
                decide(
                    t,
                    h -> with(h, "Jarvis-Expected-WorkSession-Revision", "4294967296"),
                    allowSummarize()),
            Remedy.follow(
                "re-read and retry succeeds",
                "Re-read the WorkSession, decide again on its current state, and retry",
                (t, e) -> decide(t, h -> h, allowSummarize()))));
    all.add(
        walk(
            ProtocolErrorId.STALE_WORK_SESSION_REVISION,
            "createWorkSession",
            "GenesisRules, a taken id",
            t -> http(t.createSession(Payloads.WS)),
            Remedy.follow(
                "creating it under another id succeeds",
                "Create the WorkSession under another id",
                (t, e) -> t.createSession("ws-protocol-002"))));
    all.add(
        walk(
            ProtocolErrorId.STALE_WORK_SESSION_REVISION,
            "createWorkSession",
            "header parser, a genesis revision other than 0",
            t ->
                http(
                    genesis(
                        t,
                        Payloads.HUMAN,
                        Payloads.workSession("ws-protocol-002"),
                        h -> with(h, "Jarvis-Expected-WorkSession-Revision", "3"))),
            Remedy.follow(
                "sending 0 when creating succeeds",
                "Send Jarvis-Expected-WorkSession-Revision: 0 when creating a WorkSession",
                (t, e) ->
                    genesis(t, Payloads.HUMAN, Payloads.workSession("ws-protocol-002"), h -> h))));
    all.add(
        walk(
            ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH,
            "recordPolicyDecision",
            "SessionMutations",
            t ->
                decide(
                    t,
                    h -> with(h, "Jarvis-Previous-Event-Hash", "sha256:" + "0".repeat(64)),
                    allowSummarize()),
            Remedy.follow(
                "re-read and send its last_event_hash succeeds",
                "Re-read the WorkSession and send its last_event_hash",
                (t, e) -> decide(t, h -> h, allowSummarize()))));
    all.add(
        walk(
            ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH,
            "createWorkSession",
            "header parser, genesis without hash:protocol-genesis",
            t ->
                http(
                    genesis(
                        t,
                        Payloads.HUMAN,
                        Payloads.workSession("ws-protocol-002"),
                        h -> with(h, "Jarvis-Previous-Event-Hash", "sha256:" + "0".repeat(64)))),
            Remedy.follow(
                "sending hash:protocol-genesis succeeds",
                "or hash:protocol-genesis when creating the WorkSession",
                (t, e) ->
                    genesis(t, Payloads.HUMAN, Payloads.workSession("ws-protocol-002"), h -> h))));
    all.add(
        walk(
            ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH,
            "appendJarvisEvent",
            "EventChain.checkNext, an event off the chain",
            t -> {
              ChainCursor cursor = t.cursor();
              ObjectNode draft = Payloads.event("event-1", "note.added", Payloads.HUMAN);
              draft.put("timestamp", RequestTimestamp.format(t.clock.instant()));
              ObjectNode event =
                  EventChain.next(
                      new ChainCursor(cursor.revision(), "sha256:" + "1".repeat(64)), draft);
              return http(
                  t.send(
                      "POST",
                      WS_PATH + "/events",
                      t.scoped(Payloads.HUMAN, cursor),
                      event.toString()));
            },
            Remedy.follow(
                "re-read and chain the event to its last_event_hash succeeds",
                "Re-read the WorkSession and send its last_event_hash",
                (t, e) ->
                    append(
                        t,
                        Payloads.HUMAN,
                        Payloads.event("event-1", "note.added", Payloads.HUMAN)))));
    all.add(
        walk(
            ProtocolErrorId.INVALID_EVENT_HASH,
            "appendJarvisEvent",
            "EventChain.checkNext",
            t -> {
              ChainCursor cursor = t.cursor();
              ObjectNode draft = Payloads.event("event-1", "note.added", Payloads.HUMAN);
              draft.put("timestamp", RequestTimestamp.format(t.clock.instant()));
              ObjectNode event = EventChain.next(cursor, draft);
              event.put("event_hash", "sha256:" + "2".repeat(64));
              return http(
                  t.send(
                      "POST",
                      WS_PATH + "/events",
                      t.scoped(Payloads.HUMAN, cursor),
                      event.toString()));
            },
            Remedy.follow(
                "recomputing event_hash from the event as sent succeeds",
                "Recompute event_hash from the event exactly as sent",
                (t, e) -> {
                  ChainCursor cursor = t.cursor();
                  ObjectNode draft = Payloads.event("event-1", "note.added", Payloads.HUMAN);
                  draft.put("timestamp", RequestTimestamp.format(t.clock.instant()));
                  ObjectNode event = EventChain.next(cursor, draft);
                  event.put("event_hash", EventHash.of(event));
                  return t.send(
                      "POST",
                      WS_PATH + "/events",
                      t.scoped(Payloads.HUMAN, cursor),
                      event.toString());
                })));
  }

  private static void records(List<Walk> all) {
    all.add(
        walk(
            ProtocolErrorId.UNKNOWN_STATE,
            "createWorkSession",
            "GenesisRules, an unregistered Worker",
            t -> {
              ObjectNode ws = Payloads.workSession("ws-protocol-002");
              ws.put("agent_worker_id", "worker-agent-002");
              return http(genesis(t, Payloads.HUMAN, ws, h -> h));
            },
            Remedy.follow(
                "registering the Worker first, then retrying, succeeds",
                "register or create the record first",
                (t, e) -> {
                  t.register(Payloads.worker("worker-agent-002", "agent"));
                  ObjectNode ws = Payloads.workSession("ws-protocol-002");
                  ws.put("agent_worker_id", "worker-agent-002");
                  return genesis(t, Payloads.HUMAN, ws, h -> h);
                })));
    all.add(
        walk(
            ProtocolErrorId.UNKNOWN_STATE,
            "registerActor",
            "NonSessionMutations, an Actor of an unregistered Worker",
            t ->
                http(
                    t.send(
                        "PUT",
                        "/actors/actor-agent-002",
                        t.mutation(TestHost.ADMIN),
                        Payloads.actor("actor-agent-002", "worker-agent-002", "agent", true)
                            .toString())),
            Remedy.follow(
                "registering the Worker first, then retrying, succeeds",
                "register or create the record first",
                (t, e) -> {
                  t.register(Payloads.worker("worker-agent-002", "agent"));
                  return t.send(
                      "PUT",
                      "/actors/actor-agent-002",
                      t.mutation(TestHost.ADMIN),
                      Payloads.actor("actor-agent-002", "worker-agent-002", "agent", true)
                          .toString());
                })));
    all.add(
        walk(
            ProtocolErrorId.UNKNOWN_STATE,
            "recordReview",
            "ReviewRule, a target Request not in the WorkSession",
            t ->
                http(
                    t.scopedPost(
                        "/reviews",
                        Payloads.HUMAN,
                        Payloads.review("review-1", "req-1", "answer"))),
            Remedy.follow(
                "creating the Request first, then reviewing, succeeds",
                "register or create the record first",
                (t, e) -> {
                  created(decisionAndRequest(t, "pd-1", "req-1"));
                  return t.scopedPost(
                      "/reviews", Payloads.HUMAN, Payloads.review("review-1", "req-1", "answer"));
                })));
    all.add(
        walk(
            ProtocolErrorId.UNKNOWN_STATE,
            "createRequest",
            "RequestRule, a target other than the WorkSession's human Worker",
            t -> {
              t.register(Payloads.worker("worker-human-002", "human"));
              created(
                  t.scopedPost(
                      "/policy-decisions", Payloads.AGENT, reviewDecision("pd-1", "req-1")));
              ObjectNode r = Payloads.request("req-1", "pd-1", "fetch_external_source");
              r.put("target_human_worker_id", "worker-human-002");
              return http(t.scopedPost("/requests", Payloads.AGENT, r));
            },
            Remedy.follow(
                "aiming it at the WorkSession's human Worker succeeds",
                "target_human_worker_id to the WorkSession's human_worker_id",
                (t, e) ->
                    t.scopedPost(
                        "/requests",
                        Payloads.AGENT,
                        Payloads.request("req-1", "pd-1", "fetch_external_source")))));
    all.add(
        walk(
            ProtocolErrorId.UNKNOWN_STATE,
            "recordContribution",
            "ContributionRule, an unknown Review",
            t -> {
              ObjectNode c = Payloads.contribution("contribution-1", genesisEvent(t));
              c.putArray("review_refs").add("review-1");
              return http(t.scopedPost("/contributions", Payloads.HUMAN, c));
            },
            Remedy.follow(
                "recording the Review first, then retrying, succeeds",
                "register or create the record first",
                (t, e) -> {
                  approved(t, "pd-1", "req-1", "review-1");
                  ObjectNode c = Payloads.contribution("contribution-1", genesisEvent(t));
                  c.putArray("review_refs").add("review-1");
                  return t.scopedPost("/contributions", Payloads.HUMAN, c);
                })));
    all.add(
        walk(
            ProtocolErrorId.UNKNOWN_STATE,
            "recordTakeover",
            "TakeoverRule, an unknown Request",
            t -> {
              ObjectNode takeover = Payloads.takeover("takeover-1", "locked", 1);
              takeover.put("request_id", "req-1");
              return http(t.scopedPost("/takeovers", Payloads.HUMAN, takeover));
            },
            Remedy.follow(
                "creating the Request first, then retrying, succeeds",
                "register or create the record first",
                (t, e) -> {
                  created(decisionAndRequest(t, "pd-1", "req-1"));
                  ObjectNode takeover = Payloads.takeover("takeover-1", "locked", 1);
                  takeover.put("request_id", "req-1");
                  return t.scopedPost("/takeovers", Payloads.HUMAN, takeover);
                })));
    all.add(
        walk(
            ProtocolErrorId.UNKNOWN_STATE,
            "createWorkSession",
            "RequestGuard, a body over 1 MiB",
            t -> {
              ObjectNode ws = Payloads.workSession("ws-protocol-002");
              ws.put("objective", "x".repeat((1 << 20) + 1));
              return http(genesis(t, Payloads.HUMAN, ws, h -> h));
            },
            Remedy.follow(
                "a body within the limit succeeds",
                "at most 1048576 bytes",
                (t, e) ->
                    genesis(t, Payloads.HUMAN, Payloads.workSession("ws-protocol-002"), h -> h))));
    all.add(
        walk(
            ProtocolErrorId.UNKNOWN_STATE,
            "createWorkSession",
            "RequestGuard, a body nested over 64 levels",
            t -> {
              ObjectNode ws = Payloads.workSession("ws-protocol-002");
              String deep = "[".repeat(70) + "]".repeat(70);
              String body = ws.toString().replace("\"status\"", "\"deep\":" + deep + ",\"status\"");
              return http(
                  t.send("POST", "/work-sessions", genesisHeaders(t, Payloads.HUMAN), body));
            },
            Remedy.follow(
                "a body within the nesting limit succeeds",
                "at most 64 levels",
                (t, e) ->
                    genesis(t, Payloads.HUMAN, Payloads.workSession("ws-protocol-002"), h -> h))));
    all.add(
        walk(
            ProtocolErrorId.UNKNOWN_STATE,
            "createWorkSession",
            "ParsedPayload, an unreadable body",
            t ->
                http(
                    t.send(
                        "POST",
                        "/work-sessions",
                        genesisHeaders(t, Payloads.HUMAN),
                        "{\"id\": \"ws-protocol-002\",")),
            Remedy.follow(
                "one JSON object of the schema succeeds",
                "JSON object",
                (t, e) ->
                    genesis(t, Payloads.HUMAN, Payloads.workSession("ws-protocol-002"), h -> h))));
    all.add(
        walk(
            ProtocolErrorId.UNKNOWN_STATE,
            "createWorkSession",
            "ViolationMapper, a schema rule",
            t -> {
              ObjectNode ws = Payloads.workSession("ws-protocol-002");
              ws.put("colour", "blue");
              return http(genesis(t, Payloads.HUMAN, ws, h -> h));
            },
            Remedy.follow(
                "removing the field succeeds",
                "Remove 'colour'",
                (t, e) ->
                    genesis(t, Payloads.HUMAN, Payloads.workSession("ws-protocol-002"), h -> h))));
  }

  private static void policyAndRequests(List<Walk> all) {
    all.add(
        walk(
            ProtocolErrorId.MISSING_POLICY,
            "createWorkSession",
            "GenesisRules, a Policy the host does not hold",
            t -> {
              ObjectNode ws = Payloads.workSession("ws-protocol-002");
              ws.put("policy_id", "policy-other");
              return http(genesis(t, Payloads.HUMAN, ws, h -> h));
            },
            Remedy.follow(
                "referencing an existing Policy succeeds",
                "Reference an existing Policy by policy_id",
                (t, e) ->
                    genesis(t, Payloads.HUMAN, Payloads.workSession("ws-protocol-002"), h -> h))));
    all.add(
        walk(
            ProtocolErrorId.MISSING_POLICY,
            "recordPolicyDecision",
            "PolicyDecisionRule, another Policy than the WorkSession's",
            t -> {
              ObjectNode d = allowSummarize();
              d.put("policy_id", "policy-other");
              return decide(t, h -> h, d);
            },
            Remedy.follow(
                "referencing the existing Policy succeeds",
                "Reference an existing Policy by policy_id",
                (t, e) -> decide(t, h -> h, allowSummarize()))));
    all.add(
        walk(
            ProtocolErrorId.MISSING_POLICY_DECISION,
            "createRequest",
            "RequestRule, no recorded PolicyDecision",
            t ->
                http(
                    t.scopedPost(
                        "/requests",
                        Payloads.AGENT,
                        Payloads.request("req-1", "pd-1", "fetch_external_source"))),
            Remedy.follow(
                "recording the PolicyDecision first succeeds",
                "Record a PolicyDecision for the action before",
                (t, e) -> decisionAndRequest(t, "pd-1", "req-1"))));
    all.add(
        walk(
            ProtocolErrorId.MISSING_POLICY_DECISION,
            "appendJarvisEvent",
            "EventAppendRule, an agent action without a decision",
            t ->
                http(
                    append(
                        t,
                        Payloads.AGENT,
                        Payloads.event("event-agent-1", "agent.acted", Payloads.AGENT))),
            Remedy.follow(
                "recording a PolicyDecision for the action first succeeds",
                "Record a PolicyDecision for the action before",
                (t, e) -> {
                  created(
                      t.scopedPost(
                          "/policy-decisions",
                          Payloads.AGENT,
                          Payloads.decision("pd-1", "summarize", "allow")));
                  return append(
                      t, Payloads.AGENT, agentEvent("event-agent-1", "pd-1", "summarize"));
                })));
    all.add(
        walk(
            ProtocolErrorId.POLICY_DENIED,
            "recordPolicyDecision",
            "PolicyDecisionRule, allowing what the Policy denies",
            t -> decide(t, h -> h, Payloads.decision("pd-1", "delete_repository", "allow")),
            Remedy.cannot(
                "the denied action cannot be allowed; the text names no other Actor",
                "Stop the denied action",
                Payloads.AGENT)));
    all.add(
        walk(
            ProtocolErrorId.POLICY_DENIED,
            "appendJarvisEvent",
            "EventAppendRule, an action under a denying decision",
            t -> {
              created(decide(t, h -> h, Payloads.decision("pd-1", "delete_repository", "deny")));
              return http(
                  append(
                      t, Payloads.AGENT, agentEvent("event-agent-1", "pd-1", "delete_repository")));
            },
            Remedy.cannot(
                "the denied action cannot succeed; the text names no other Actor",
                "Stop the denied action",
                Payloads.AGENT)));
    all.add(
        walk(
            ProtocolErrorId.REVIEW_REQUIRED,
            "recordPolicyDecision",
            "PolicyDecisionRule, allowing what the Policy sends to review",
            t -> decide(t, h -> h, Payloads.decision("pd-1", "fetch_external_source", "allow")),
            Remedy.follow(
                "deciding review_required and creating the Request succeeds",
                "Create a Request for review",
                (t, e) -> decisionAndRequest(t, "pd-1", "req-1"))));
    all.add(
        walk(
            ProtocolErrorId.REVIEW_REQUIRED,
            "appendJarvisEvent",
            "EventAppendRule, an action awaiting review",
            t -> {
              created(decisionAndRequest(t, "pd-1", "req-1"));
              return http(
                  append(
                      t,
                      Payloads.AGENT,
                      agentEvent("event-agent-1", "pd-1", "fetch_external_source")));
            },
            Remedy.follow(
                "continuing after an approving Review succeeds",
                "continue only after a Review approves the action",
                (t, e) -> {
                  ObjectNode review = Payloads.review("review-1", "req-1", "approve");
                  review.set("approval_scope", scopeOfRecordedRequest(t, "req-1", "review-1"));
                  created(t.scopedPost("/reviews", Payloads.HUMAN, review));
                  return append(
                      t,
                      Payloads.AGENT,
                      agentEvent("event-agent-1", "pd-1", "fetch_external_source"));
                })));
    all.add(
        walk(
            ProtocolErrorId.REQUEST_UNRESOLVED,
            "appendJarvisEvent",
            "EventAppendRule, completing with an open Request",
            t -> {
              created(decisionAndRequest(t, "pd-1", "req-1"));
              return http(complete(t));
            },
            Remedy.follow(
                "completing after a Review resolved it succeeds",
                "Wait for a Review that resolves the Request",
                (t, e) -> {
                  created(
                      t.scopedPost(
                          "/reviews",
                          Payloads.HUMAN,
                          Payloads.review("review-1", "req-1", "answer")));
                  return complete(t);
                })));
    all.add(
        walk(
            ProtocolErrorId.INVALID_REQUEST_TRANSITION,
            "createRequest",
            "RequestRule, a Request created in another status",
            t -> {
              created(decide(t, h -> h, reviewDecision("pd-1", "req-1")));
              ObjectNode r = Payloads.request("req-1", "pd-1", "fetch_external_source");
              r.put("status", "acknowledged");
              return http(t.scopedPost("/requests", Payloads.AGENT, r));
            },
            Remedy.follow(
                "creating it pending succeeds",
                "Create the Request with status pending",
                (t, e) ->
                    t.scopedPost(
                        "/requests",
                        Payloads.AGENT,
                        Payloads.request("req-1", "pd-1", "fetch_external_source")))));
    all.add(
        walk(
            ProtocolErrorId.INVALID_REQUEST_TRANSITION,
            "createRequest",
            "RequestRule, a Request expired on arrival",
            t -> {
              created(decide(t, h -> h, reviewDecision("pd-1", "req-1")));
              ObjectNode r = Payloads.request("req-1", "pd-1", "fetch_external_source");
              r.put("expires_at", "2026-06-12T18:19:00Z");
              return http(t.scopedPost("/requests", Payloads.AGENT, r));
            },
            Remedy.follow(
                "an expiry after the host's time succeeds",
                "expires_at after the host's current time",
                (t, e) ->
                    t.scopedPost(
                        "/requests",
                        Payloads.AGENT,
                        Payloads.request("req-1", "pd-1", "fetch_external_source")))));
    all.add(
        walk(
            ProtocolErrorId.INVALID_REQUEST_TRANSITION,
            "recordReview",
            "ReviewRule, a Request resolved already",
            t -> {
              approved(t, "pd-1", "req-1", "review-1");
              return http(
                  t.scopedPost(
                      "/reviews", Payloads.HUMAN, Payloads.review("review-2", "req-1", "answer")));
            },
            Remedy.cannot(
                "a resolved Request takes no further Review; the text names no other Actor",
                "Re-read the Request and apply only a status change its lifecycle allows",
                Payloads.HUMAN)));
    all.add(
        walk(
            ProtocolErrorId.DUPLICATE_REQUEST_MISMATCH,
            "createRequest",
            "RequestRule, a Request id reused",
            t -> {
              created(decisionAndRequest(t, "pd-1", "req-1"));
              created(
                  t.scopedPost(
                      "/reviews", Payloads.HUMAN, Payloads.review("review-1", "req-1", "answer")));
              return http(
                  t.scopedPost(
                      "/requests",
                      Payloads.AGENT,
                      Payloads.request("req-1", "pd-1", "fetch_external_source")));
            },
            Remedy.follow(
                "a new id succeeds",
                "under an id of its own",
                (t, e) ->
                    t.scopedPost(
                        "/requests",
                        Payloads.AGENT,
                        Payloads.request("req-2", "pd-1", "fetch_external_source")))));
    all.add(
        walk(
            ProtocolErrorId.DUPLICATE_REQUEST_MISMATCH,
            "createRequest",
            "RequestRule, a second open Request for one decision",
            t -> {
              created(decisionAndRequest(t, "pd-1", "req-1"));
              return http(
                  t.scopedPost(
                      "/requests",
                      Payloads.AGENT,
                      Payloads.request("req-2", "pd-1", "fetch_external_source")));
            },
            Remedy.follow(
                "naming the open Request it replaces succeeds",
                "duplicate_of_request_id",
                (t, e) -> {
                  ObjectNode r = Payloads.request("req-2", "pd-1", "fetch_external_source");
                  r.put("duplicate_of_request_id", "req-1");
                  return t.scopedPost("/requests", Payloads.AGENT, r);
                })));
    all.add(
        walk(
            ProtocolErrorId.REQUEST_LIVELOCK,
            "createRequest",
            "RequestRule, the Policy's max_pending_requests",
            t -> {
              created(decisionAndRequest(t, "pd-1", "req-1"));
              created(decisionAndRequest(t, "pd-2", "req-2"));
              return http(decisionAndRequest(t, "pd-3", "req-3"));
            },
            Remedy.follow(
                "asking again after a HumanWorker decided succeeds",
                "wait for a HumanWorker decision",
                (t, e) -> {
                  created(
                      t.scopedPost(
                          "/reviews",
                          Payloads.HUMAN,
                          Payloads.review("review-1", "req-1", "answer")));
                  return t.scopedPost(
                      "/requests",
                      Payloads.AGENT,
                      Payloads.request("req-3", "pd-3", "fetch_external_source"));
                })));
    all.add(
        walk(
            ProtocolErrorId.REQUEST_LIVELOCK,
            "createRequest",
            "PrincipalLimitRules, pendingRequestsPerTargetHuman",
            () -> withSession(b -> b.pendingRequestsPerTargetHuman(1)),
            t -> {
              created(decisionAndRequest(t, "pd-1", "req-1"));
              return http(decisionAndRequest(t, "pd-2", "req-2"));
            },
            Remedy.follow(
                "asking again once the human resolved one succeeds",
                "Wait until the human has resolved some of the Requests",
                (t, e) -> {
                  created(
                      t.scopedPost(
                          "/reviews",
                          Payloads.HUMAN,
                          Payloads.review("review-1", "req-1", "answer")));
                  return t.scopedPost(
                      "/requests",
                      Payloads.AGENT,
                      Payloads.request("req-2", "pd-2", "fetch_external_source"));
                })));
    all.add(
        walk(
            ProtocolErrorId.APPROVAL_SCOPE_MISMATCH,
            "recordPolicyDecision",
            "PolicyDecisionRule, a hash that is not the action's",
            t -> {
              ObjectNode d = allowSummarize();
              d.put("normalized_action_hash", "hash:action-fetch-external-source");
              return decide(t, h -> h, d);
            },
            Remedy.follow(
                "the action hash of requested_action succeeds",
                "normalized_action_hash to the action hash of requested_action",
                (t, e) -> decide(t, h -> h, allowSummarize()))));
    all.add(
        walk(
            ProtocolErrorId.APPROVAL_SCOPE_MISMATCH,
            "createRequest",
            "RequestRule, another action than its decision's",
            t -> {
              created(decide(t, h -> h, reviewDecision("pd-1", "req-1")));
              return http(
                  t.scopedPost(
                      "/requests", Payloads.AGENT, Payloads.request("req-1", "pd-1", "summarize")));
            },
            Remedy.follow(
                "asking for exactly the decided action succeeds",
                "Perform exactly the approved action",
                (t, e) ->
                    t.scopedPost(
                        "/requests",
                        Payloads.AGENT,
                        Payloads.request("req-1", "pd-1", "fetch_external_source")))));
  }

  private static void reviewsAndApprovals(List<Walk> all) {
    all.add(
        walk(
            ProtocolErrorId.APPROVAL_SCOPE_MISMATCH,
            "recordReview",
            "ReviewRule, a scope bound to another Request revision",
            t -> {
              created(decisionAndRequest(t, "pd-1", "req-1"));
              ObjectNode review = Payloads.review("review-1", "req-1", "approve");
              ObjectNode scope = scopeOfRecordedRequest(t, "req-1", "review-1");
              scope.put("request_revision", 1);
              review.set("approval_scope", scope);
              return http(t.scopedPost("/reviews", Payloads.HUMAN, review));
            },
            Remedy.follow(
                "binding the scope to the Request as recorded succeeds",
                "Bind the ApprovalScope to the Request as recorded",
                (t, e) -> {
                  ObjectNode review = Payloads.review("review-1", "req-1", "approve");
                  review.set("approval_scope", scopeOfRecordedRequest(t, "req-1", "review-1"));
                  return t.scopedPost("/reviews", Payloads.HUMAN, review);
                })));
    all.add(
        walk(
            ProtocolErrorId.APPROVAL_SCOPE_MISMATCH,
            "appendJarvisEvent",
            "EventAppendRule, a decision that is not the approved Request's",
            t -> {
              approved(t, "pd-1", "req-1", "review-1");
              created(decide(t, h -> h, reviewDecision("pd-2", "req-1")));
              return append(
                  t, Payloads.AGENT, agentEvent("event-agent-1", "pd-2", "fetch_external_source"));
            },
            Remedy.follow(
                "performing exactly the approved action succeeds",
                "Perform exactly the approved action",
                (t, e) ->
                    append(
                        t,
                        Payloads.AGENT,
                        agentEvent("event-agent-1", "pd-1", "fetch_external_source")))));
    all.add(
        walk(
            ProtocolErrorId.INVALID_APPROVAL_SCOPE,
            "recordReview",
            "ReviewRule, a scope naming another Review",
            t -> {
              created(decisionAndRequest(t, "pd-1", "req-1"));
              ObjectNode review = Payloads.review("review-1", "req-1", "approve");
              ObjectNode scope = scopeOfRecordedRequest(t, "req-1", "review-1");
              scope.put("review_id", "review-other");
              review.set("approval_scope", scope);
              return http(t.scopedPost("/reviews", Payloads.HUMAN, review));
            },
            Remedy.follow(
                "bounding the scope to the Request succeeds",
                "Bound the ApprovalScope to the Request",
                (t, e) -> {
                  ObjectNode review = Payloads.review("review-1", "req-1", "approve");
                  review.set("approval_scope", scopeOfRecordedRequest(t, "req-1", "review-1"));
                  return t.scopedPost("/reviews", Payloads.HUMAN, review);
                })));
    all.add(
        walk(
            ProtocolErrorId.APPROVAL_SCOPE_EXPIRED,
            "recordReview",
            "ReviewRule, a scope expiring now",
            t -> {
              created(decisionAndRequest(t, "pd-1", "req-1"));
              ObjectNode review = Payloads.review("review-1", "req-1", "approve");
              ObjectNode scope = scopeOfRecordedRequest(t, "req-1", "review-1");
              scope.put("expires_at", "2026-06-12T18:20:00Z");
              review.set("approval_scope", scope);
              return http(t.scopedPost("/reviews", Payloads.HUMAN, review));
            },
            Remedy.follow(
                "an expiry after the host's time succeeds",
                "expires_at after the host's current time",
                (t, e) -> {
                  ObjectNode review = Payloads.review("review-1", "req-1", "approve");
                  review.set("approval_scope", scopeOfRecordedRequest(t, "req-1", "review-1"));
                  return t.scopedPost("/reviews", Payloads.HUMAN, review);
                })));
    all.add(
        walk(
            ProtocolErrorId.APPROVAL_SCOPE_EXPIRED,
            "appendJarvisEvent",
            "EventAppendRule, an approval used up",
            t -> {
              approved(t, "pd-1", "req-1", "review-1");
              created(
                  append(
                      t,
                      Payloads.AGENT,
                      agentEvent("event-agent-1", "pd-1", "fetch_external_source")));
              return http(
                  append(
                      t,
                      Payloads.AGENT,
                      agentEvent("event-agent-2", "pd-1", "fetch_external_source")));
            },
            Remedy.follow(
                "a new Request and a fresh Review, then the action, succeeds",
                "Create a new Request and obtain a fresh Review",
                (t, e) -> {
                  approved(t, "pd-2", "req-2", "review-2");
                  return append(
                      t,
                      Payloads.AGENT,
                      agentEvent("event-agent-2", "pd-2", "fetch_external_source"));
                })));
  }

  private static void takeovers(List<Walk> all) {
    all.add(
        walk(
            ProtocolErrorId.STALE_TAKEOVER_EPOCH,
            "recordTakeover",
            "TakeoverRule, an epoch already used",
            t -> {
              created(
                  t.scopedPost(
                      "/takeovers", Payloads.HUMAN, Payloads.takeover("takeover-1", "locked", 1)));
              return http(
                  t.scopedPost(
                      "/takeovers", Payloads.HUMAN, Payloads.takeover("takeover-2", "locked", 1)));
            },
            Remedy.follow(
                "continuing under the current epoch succeeds",
                "Re-read the WorkSession's Takeover state and continue only under the current one",
                (t, e) ->
                    t.scopedPost(
                        "/takeovers",
                        Payloads.HUMAN,
                        Payloads.takeover("takeover-2", "locked", 2)))));
    all.add(
        walk(
            ProtocolErrorId.STALE_TAKEOVER_EPOCH,
            "recordPolicyDecision",
            "SessionMutations, an agent write during a Takeover",
            t -> {
              created(
                  t.scopedPost(
                      "/takeovers", Payloads.HUMAN, Payloads.takeover("takeover-1", "locked", 1)));
              return decide(t, h -> h, allowSummarize());
            },
            Remedy.follow(
                "writing again once the Takeover is resumed succeeds",
                "continue only under the current one",
                (t, e) -> {
                  created(t.scopedPost("/takeovers", Payloads.HUMAN, resumed("takeover-1", 1)));
                  return decide(t, h -> h, allowSummarize());
                })));
    all.add(
        walk(
            ProtocolErrorId.INVALID_TRANSITION,
            "recordTakeover",
            "TakeoverRule, moving backwards",
            t -> {
              created(
                  t.scopedPost(
                      "/takeovers",
                      Payloads.HUMAN,
                      Payloads.takeover("takeover-1", "human_active", 1)));
              return http(
                  t.scopedPost(
                      "/takeovers", Payloads.HUMAN, Payloads.takeover("takeover-1", "locked", 1)));
            },
            Remedy.follow(
                "a transition allowed from the current state succeeds",
                "request only a transition the protocol allows from it",
                (t, e) -> t.scopedPost("/takeovers", Payloads.HUMAN, resumed("takeover-1", 1)))));
    all.add(
        walk(
            ProtocolErrorId.INVALID_TRANSITION,
            "appendJarvisEvent",
            "WorkSessionLifecycle, closing an active WorkSession",
            t ->
                http(
                    append(
                        t,
                        Payloads.HUMAN,
                        Payloads.event("event-closed", "work_session.closed", Payloads.HUMAN))),
            Remedy.follow(
                "a transition allowed from active succeeds",
                "request only a transition the protocol allows from it",
                (t, e) -> complete(t))));
  }

  private static void contributionsAndLearning(List<Walk> all) {
    all.add(
        walk(
            ProtocolErrorId.INVALID_TRANSITION,
            "recordPolicyDecision",
            "PolicyDecisionRule, a decision id recorded already",
            t -> {
              created(decide(t, h -> h, allowSummarize()));
              return decide(t, h -> h, allowSummarize());
            },
            Remedy.follow(
                "an id of its own succeeds",
                "under an id of its own",
                (t, e) -> decide(t, h -> h, Payloads.decision("pd-2", "summarize", "allow")))));
    all.add(
        walk(
            ProtocolErrorId.INVALID_TRANSITION,
            "appendJarvisEvent",
            "EventAppendRule, an event id recorded already",
            t -> {
              created(
                  append(
                      t, Payloads.HUMAN, Payloads.event("event-1", "note.added", Payloads.HUMAN)));
              return http(
                  append(
                      t, Payloads.HUMAN, Payloads.event("event-1", "note.added", Payloads.HUMAN)));
            },
            Remedy.follow(
                "an id of its own succeeds",
                "under an id of its own",
                (t, e) ->
                    append(
                        t,
                        Payloads.HUMAN,
                        Payloads.event("event-2", "note.added", Payloads.HUMAN)))));
    all.add(
        walk(
            ProtocolErrorId.SEALED_EVIDENCE_MUTATION,
            "createLearningRecord",
            "RecordScope, an id of a sealed WorkSession's record",
            t -> {
              Steps.sealed(t);
              created(t.createSession("ws-protocol-002"));
              return http(learningRecordIn(t, "ws-protocol-002", "lr-1"));
            },
            Remedy.follow(
                "an id of its own succeeds",
                "under an id of its own",
                (t, e) -> learningRecordIn(t, "ws-protocol-002", "lr-2"))));
    all.add(
        walk(
            ProtocolErrorId.MISSING_JARVIS_EVENT,
            "recordContribution",
            "ContributionRule",
            t ->
                http(
                    t.scopedPost(
                        "/contributions",
                        Payloads.HUMAN,
                        Payloads.contribution("contribution-1", "event-1"))),
            Remedy.follow(
                "appending the event first, then citing it, succeeds",
                "Append the event first, then reference it by the id it was accepted with",
                (t, e) -> {
                  created(
                      append(
                          t,
                          Payloads.HUMAN,
                          Payloads.event("event-1", "note.added", Payloads.HUMAN)));
                  return t.scopedPost(
                      "/contributions",
                      Payloads.HUMAN,
                      Payloads.contribution("contribution-1", "event-1"));
                })));
    all.add(
        walk(
            ProtocolErrorId.MISSING_JARVIS_EVENT,
            "createLearningRecord",
            "LearningRules",
            t ->
                http(
                    t.scopedPost(
                        "/learning-records",
                        Payloads.HUMAN,
                        Payloads.learningRecord("lr-1", "event-1", Payloads.HUMAN))),
            Remedy.follow(
                "appending the event first, then citing it, succeeds",
                "Append the event first, then reference it by the id it was accepted with",
                (t, e) -> {
                  created(
                      append(
                          t,
                          Payloads.HUMAN,
                          Payloads.event("event-1", "note.added", Payloads.HUMAN)));
                  return t.scopedPost(
                      "/learning-records",
                      Payloads.HUMAN,
                      Payloads.learningRecord("lr-1", "event-1", Payloads.HUMAN));
                })));
    all.add(
        walk(
            ProtocolErrorId.INVALID_CONTRIBUTOR_REFS,
            "recordContribution",
            "ContributionRule, a ref that is not a registered pair",
            t -> {
              ObjectNode c = Payloads.contribution("contribution-1", genesisEvent(t));
              ((ObjectNode) c.path("contributor_refs").get(0))
                  .put("worker_id", Payloads.AGENT_WORKER);
              return http(t.scopedPost("/contributions", Payloads.HUMAN, c));
            },
            Remedy.follow(
                "a registered Worker with its own Actor succeeds",
                "Reference registered Workers with their own Actors",
                (t, e) -> Steps.contribution(t, "contribution-1"))));
    all.add(
        walk(
            ProtocolErrorId.SHARED_CONTRIBUTION_WITHOUT_INDIVIDUAL_REFS,
            "recordContribution",
            "ContributionRule, two Actors of one Worker",
            t -> {
              t.registerActor(
                  Payloads.actor("actor-human-002", Payloads.HUMAN_WORKER, "human", true));
              return http(
                  t.scopedPost(
                      "/contributions",
                      Payloads.HUMAN,
                      shared(genesisEvent(t), Payloads.HUMAN_WORKER, "actor-human-002")));
            },
            Remedy.follow(
                "each individual contributor with their own Worker succeeds",
                "List each individual contributor of a shared Contribution with their own Worker",
                (t, e) ->
                    t.scopedPost(
                        "/contributions",
                        Payloads.HUMAN,
                        shared(genesisEvent(t), Payloads.AGENT_WORKER, Payloads.AGENT)))));
    all.add(
        walk(
            ProtocolErrorId.EVIDENCE_AFTER_THE_FACT,
            "appendJarvisEvent",
            "EventAppendRule, an event an hour old",
            t -> {
              ChainCursor cursor = t.cursor();
              ObjectNode draft = Payloads.event("event-1", "note.added", Payloads.HUMAN);
              draft.put("timestamp", RequestTimestamp.format(t.clock.instant().minusSeconds(3600)));
              return http(
                  t.send(
                      "POST",
                      WS_PATH + "/events",
                      t.scoped(Payloads.HUMAN, cursor),
                      EventChain.next(cursor, draft).toString()));
            },
            Remedy.follow(
                "appending it as it happens succeeds",
                "as it happens",
                (t, e) ->
                    append(
                        t,
                        Payloads.HUMAN,
                        Payloads.event("event-1", "note.added", Payloads.HUMAN)))));
    all.add(
        walk(
            ProtocolErrorId.SILENT_MEMORY_MUTATION,
            "createMemoryProposal",
            "LearningRules, accepted without a recorded Review",
            t -> {
              ObjectNode m = Payloads.memoryProposal("memory-1", Payloads.HUMAN, "accepted");
              m.putArray("review_refs").add("review-1");
              return http(t.scopedPost("/memory-proposals", Payloads.HUMAN, m));
            },
            Remedy.follow(
                "submitting it as a proposal for review succeeds",
                "Submit the change as a MemoryProposal and apply it only after a Review accepts it",
                (t, e) ->
                    t.scopedPost(
                        "/memory-proposals",
                        Payloads.HUMAN,
                        Payloads.memoryProposal("memory-1", Payloads.HUMAN, "pending_review")))));
    all.add(
        walk(
            ProtocolErrorId.SILENT_SKILL_ACTIVATION,
            "createSkillProposal",
            "LearningRules, an agent activating its own skill",
            t -> {
              ObjectNode s = Payloads.skillProposal("skill-1", Payloads.AGENT, "accepted");
              s.putArray("review_refs").add("review-1");
              return http(t.scopedPost("/skill-proposals", Payloads.AGENT, s));
            },
            Remedy.follow(
                "submitting it for review succeeds",
                "Submit the skill as a SkillProposal and activate it only after a Review accepts",
                (t, e) ->
                    t.scopedPost(
                        "/skill-proposals",
                        Payloads.AGENT,
                        Payloads.skillProposal("skill-1", Payloads.AGENT, "pending_review")))));
    all.add(
        walk(
            ProtocolErrorId.MODEL_SELF_CONFIRMED_MEMORY,
            "createMemoryProposal",
            "LearningRules, an agent accepting its own memory",
            t -> {
              ObjectNode m = Payloads.memoryProposal("memory-1", Payloads.AGENT, "accepted");
              m.putArray("review_refs").add("review-1");
              return http(t.scopedPost("/memory-proposals", Payloads.AGENT, m));
            },
            Remedy.follow(
                "a HumanWorker's Review referenced when accepting succeeds",
                "Have a HumanWorker review model-derived memory and reference that Review",
                (t, e) -> humanAcceptsMemory(t))));
    all.add(
        walk(
            ProtocolErrorId.TOOL_SELF_CONFIRMED_MEMORY,
            "createMemoryProposal",
            "LearningRules, a tool accepting its own memory",
            t -> {
              t.registerActor(
                  Payloads.actor("actor-tool-001", Payloads.AGENT_WORKER, "tool", true));
              ObjectNode m = Payloads.memoryProposal("memory-1", "actor-tool-001", "accepted");
              m.putArray("review_refs").add("review-1");
              return http(t.scopedPost("/memory-proposals", "actor-tool-001", m));
            },
            Remedy.follow(
                "a HumanWorker's Review referenced when accepting succeeds",
                "Have a HumanWorker review tool-derived memory and reference that Review",
                (t, e) -> humanAcceptsMemory(t))));
    all.add(
        walk(
            ProtocolErrorId.SKILL_EXPANDS_TOOL_ACCESS_WITHOUT_POLICY_REVIEW,
            "createSkillProposal",
            "LearningRules, tools beyond the Policy's grants",
            t -> {
              approved(t, "pd-1", "req-1", "review-1");
              return http(
                  t.scopedPost(
                      "/skill-proposals",
                      Payloads.HUMAN,
                      acceptedSkill("tool:search", "tool:shell")));
            },
            Remedy.follow(
                "dropping the extra tools succeeds",
                "or drop the extra tools",
                (t, e) ->
                    t.scopedPost(
                        "/skill-proposals", Payloads.HUMAN, acceptedSkill("tool:search")))));
  }

  private static void endAndExport(List<Walk> all) {
    all.add(
        walk(
            ProtocolErrorId.MUTATION_AFTER_CLOSED,
            "recordPolicyDecision",
            "WorkSessionLifecycle",
            t -> {
              created(complete(t));
              return decide(t, h -> h, allowSummarize());
            },
            Remedy.follow(
                "starting a new WorkSession for further work succeeds",
                "Start a new WorkSession for further work",
                (t, e) -> t.createSession("ws-protocol-002"))));
    all.add(
        walk(
            ProtocolErrorId.INVALID_EXPORT_STATE,
            "exportEvidenceManifest",
            "Reads, a WorkSession not ended",
            t -> {
              created(Steps.contribution(t, "contribution-1"));
              return http(t.get(Steps.EXPORT, Payloads.HUMAN));
            },
            Remedy.follow(
                "completing it, then exporting, succeeds",
                "Bring the WorkSession to completed, failed, cancelled or closed",
                (t, e) -> {
                  created(complete(t));
                  return t.get(Steps.EXPORT, Payloads.HUMAN);
                })));
    all.add(
        walk(
            ProtocolErrorId.INVALID_EVIDENCE_EXPORT_STATE,
            "exportEvidenceManifest",
            "Reads, no Contribution",
            t -> {
              created(complete(t));
              return http(t.get(Steps.EXPORT, Payloads.HUMAN));
            },
            Remedy.follow(
                "a WorkSession that records a Contribution before it ends exports",
                "Record at least one Contribution before the WorkSession ends",
                (t, e) -> {
                  created(t.createSession("ws-protocol-002"));
                  ObjectNode c = Payloads.contribution("contribution-1", "x");
                  c.put("work_session_id", "ws-protocol-002");
                  String genesis =
                      t.host
                          .host()
                          .config()
                          .stores()
                          .sessions()
                          .events("ws-protocol-002")
                          .get(0)
                          .path("id")
                          .asText();
                  c.putArray("event_refs").add(genesis);
                  created(
                      t.send(
                          "POST",
                          "/work-sessions/ws-protocol-002/contributions",
                          t.scoped(Payloads.HUMAN, t.cursorOf("ws-protocol-002")),
                          c.toString()));
                  ObjectNode done =
                      Payloads.event("event-done", "work_session.completed", Payloads.HUMAN);
                  done.put("work_session_id", "ws-protocol-002");
                  done.put("timestamp", RequestTimestamp.format(t.clock.instant()));
                  ((ObjectNode) done.path("payload")).put("object_id", "ws-protocol-002");
                  ChainCursor cursor = t.cursorOf("ws-protocol-002");
                  created(
                      t.send(
                          "POST",
                          "/work-sessions/ws-protocol-002/events",
                          t.scoped(Payloads.HUMAN, cursor),
                          EventChain.next(cursor, done).toString()));
                  return t.get("/work-sessions/ws-protocol-002/export", Payloads.HUMAN);
                })));
    all.add(
        walk(
            ProtocolErrorId.SEALED_WORK_SESSION_MUTATION,
            "appendJarvisEvent",
            "SessionMutations, an exported WorkSession",
            t -> {
              Steps.sealed(t);
              return http(
                  append(
                      t,
                      Payloads.HUMAN,
                      Payloads.event("event-closed", "work_session.closed", Payloads.HUMAN)));
            },
            Remedy.follow(
                "recording the feedback as an OutcomeReport succeeds",
                "record follow-up feedback as an OutcomeReport",
                (t, e) -> outcomeReport(t, "lr-1"))));
    all.add(
        walk(
            ProtocolErrorId.OUTCOME_REPORT_REQUIRES_TERMINAL_SOURCE,
            "submitOutcomeReport",
            "NonSessionMutations, a WorkSession not exported",
            t -> {
              created(Steps.contribution(t, "contribution-1"));
              created(
                  t.scopedPost(
                      "/learning-records",
                      Payloads.HUMAN,
                      Payloads.learningRecord("lr-1", genesisEvent(t), Payloads.HUMAN)));
              return http(outcomeReport(t, "lr-1"));
            },
            Remedy.follow(
                "submitting after the WorkSession ended and was exported succeeds",
                "only after its WorkSession has reached a terminal state and been exported",
                (t, e) -> {
                  created(complete(t));
                  assertEquals(200, t.get(Steps.EXPORT, Payloads.HUMAN).status());
                  return outcomeReport(t, "lr-1");
                })));
    all.add(
        walk(
            ProtocolErrorId.OUTCOME_REPORT_WITHOUT_LEARNING_RECORD,
            "submitOutcomeReport",
            "NonSessionMutations, no such LearningRecord",
            t -> {
              Steps.sealed(t);
              return http(outcomeReport(t, "lr-nowhere"));
            },
            Remedy.follow(
                "referencing an existing LearningRecord succeeds",
                "Reference at least one existing LearningRecord of the WorkSession",
                (t, e) -> outcomeReport(t, "lr-1"))));
  }

  /** Ids only the payload rules raise, and one id the rules raise beside a host rule. */
  private static void payloadRules(List<Walk> all) {
    all.add(
        walk(
            ProtocolErrorId.MISSING_OBJECTIVE,
            "createWorkSession",
            "PayloadValidator",
            t -> {
              ObjectNode ws = Payloads.workSession("ws-protocol-002");
              ws.remove("objective");
              return http(genesis(t, Payloads.HUMAN, ws, h -> h));
            },
            Remedy.follow(
                "stating the objective succeeds",
                "State the WorkSession's objective as non-empty text",
                (t, e) ->
                    genesis(t, Payloads.HUMAN, Payloads.workSession("ws-protocol-002"), h -> h))));
    all.add(
        walk(
            ProtocolErrorId.FORBIDDEN_HOST_PRIVATE_FIELD,
            "registerWorker",
            "PayloadValidator",
            t -> {
              ObjectNode w = Payloads.worker("worker-agent-002", "agent");
              w.put("password", "hunter2");
              return http(
                  t.send(
                      "PUT",
                      "/workers/worker-agent-002",
                      t.mutation(TestHost.ADMIN),
                      w.toString()));
            },
            Remedy.follow(
                "removing the field succeeds",
                "Remove the host-private field",
                (t, e) -> registerWorker(t, h -> h, "worker-agent-002"))));
    all.add(
        walk(
            ProtocolErrorId.EXTENSION_CORE_FIELD_OVERRIDE,
            "registerWorker",
            "PayloadValidator",
            t -> {
              ObjectNode w = Payloads.worker("worker-agent-002", "agent");
              w.putObject("extensions").putObject("role").put("level", 2);
              return http(
                  t.send(
                      "PUT",
                      "/workers/worker-agent-002",
                      t.mutation(TestHost.ADMIN),
                      w.toString()));
            },
            Remedy.follow(
                "carrying the value in a namespaced extension succeeds",
                "carry the extra value in a namespaced extension field",
                (t, e) -> {
                  ObjectNode w = Payloads.worker("worker-agent-002", "agent");
                  w.putObject("extensions").putObject("com.example.role").put("level", 2);
                  return t.send(
                      "PUT", "/workers/worker-agent-002", t.mutation(TestHost.ADMIN), w.toString());
                })));
    all.add(
        walk(
            ProtocolErrorId.MISSING_CONTRIBUTION_ACTOR,
            "recordContribution",
            "PayloadValidator",
            t -> {
              ObjectNode c = Payloads.contribution("contribution-1", genesisEvent(t));
              ((ObjectNode) c.path("contributor_refs").get(0)).remove("actor_id");
              return http(t.scopedPost("/contributions", Payloads.HUMAN, c));
            },
            Remedy.follow(
                "giving the ref its Actor succeeds",
                "Give every contributor reference the Actor id",
                (t, e) -> Steps.contribution(t, "contribution-1"))));
    all.add(
        walk(
            ProtocolErrorId.DUPLICATE_CONTRIBUTOR_REF,
            "recordContribution",
            "PayloadValidator, x-jarvis-unique-by",
            t -> {
              ObjectNode c = Payloads.contribution("contribution-1", genesisEvent(t));
              ((com.fasterxml.jackson.databind.node.ArrayNode) c.path("contributor_refs"))
                  .add(c.path("contributor_refs").get(0).deepCopy());
              return http(t.scopedPost("/contributions", Payloads.HUMAN, c));
            },
            Remedy.follow(
                "listing the pair once succeeds",
                "List each Worker and Actor pair only once",
                (t, e) -> Steps.contribution(t, "contribution-1"))));
    all.add(
        walk(
            ProtocolErrorId.SHARED_CONTRIBUTION_WITHOUT_INDIVIDUAL_REFS,
            "recordContribution",
            "PayloadValidator, one ref",
            t -> {
              ObjectNode c = Payloads.contribution("contribution-1", genesisEvent(t));
              c.put("contributor_type", "shared");
              ((ObjectNode) c.path("contributor_refs").get(0)).put("contribution_role", "shared");
              return http(t.scopedPost("/contributions", Payloads.HUMAN, c));
            },
            Remedy.follow(
                "each individual contributor with their own Worker succeeds",
                "List each individual contributor of a shared Contribution with their own Worker",
                (t, e) ->
                    t.scopedPost(
                        "/contributions",
                        Payloads.HUMAN,
                        shared(genesisEvent(t), Payloads.AGENT_WORKER, Payloads.AGENT)))));
    all.add(
        walk(
            ProtocolErrorId.MISSING_REVIEW_RESOLUTION,
            "createRequest",
            "PayloadValidator, a Request approved without its Review",
            t -> {
              created(decide(t, h -> h, reviewDecision("pd-1", "req-1")));
              ObjectNode r = Payloads.request("req-1", "pd-1", "fetch_external_source");
              r.put("status", "approved");
              r.put("resolved_at", "2026-06-12T18:07:00Z");
              return http(t.scopedPost("/requests", Payloads.AGENT, r));
            },
            Remedy.follow(
                "creating it pending for a Review to resolve succeeds",
                "Create the Request pending and let a HumanWorker Review resolve it",
                (t, e) ->
                    t.scopedPost(
                        "/requests",
                        Payloads.AGENT,
                        Payloads.request("req-1", "pd-1", "fetch_external_source")))));
    all.add(
        walk(
            ProtocolErrorId.MISSING_SUPERSEDING_REQUEST,
            "createRequest",
            "PayloadValidator, a Request superseded without its successor",
            t -> {
              created(decisionAndRequest(t, "pd-1", "req-1"));
              ObjectNode r = Payloads.request("req-2", "pd-1", "fetch_external_source");
              r.put("status", "superseded");
              r.put("resolved_at", "2026-06-12T18:07:00Z");
              r.put("closed_by_event_ref", "event-1");
              return http(t.scopedPost("/requests", Payloads.AGENT, r));
            },
            Remedy.follow(
                "creating the new Request naming the one it replaces succeeds",
                "name the Request it replaces in duplicate_of_request_id",
                (t, e) -> {
                  ObjectNode r = Payloads.request("req-2", "pd-1", "fetch_external_source");
                  r.put("duplicate_of_request_id", "req-1");
                  return t.scopedPost("/requests", Payloads.AGENT, r);
                })));
    all.add(
        walk(
            ProtocolErrorId.MISSING_TAKEOVER_RESOLUTION,
            "recordReview",
            "PayloadValidator, a takeover Review without its Takeover",
            t -> {
              created(decisionAndRequest(t, "pd-1", "req-1"));
              return http(
                  t.scopedPost(
                      "/reviews",
                      Payloads.HUMAN,
                      Payloads.review("review-1", "req-1", "takeover")));
            },
            Remedy.follow(
                "recording the Takeover first and naming it succeeds",
                "Record the Takeover and its outcome before",
                (t, e) -> {
                  ObjectNode takeover = Payloads.takeover("takeover-1", "locked", 1);
                  created(t.scopedPost("/takeovers", Payloads.HUMAN, takeover));
                  ObjectNode review = Payloads.review("review-1", "req-1", "takeover");
                  review.put("takeover_id", "takeover-1");
                  return t.scopedPost("/reviews", Payloads.HUMAN, review);
                })));
    all.add(
        walk(
            ProtocolErrorId.MISSING_RECONCILIATION_REFS,
            "recordTakeover",
            "PayloadValidator, resuming without reconciliation",
            t -> {
              created(
                  t.scopedPost(
                      "/takeovers", Payloads.HUMAN, Payloads.takeover("takeover-1", "locked", 1)));
              ObjectNode r = resumed("takeover-1", 1);
              r.remove("reconciliation_refs");
              return http(t.scopedPost("/takeovers", Payloads.HUMAN, r));
            },
            Remedy.follow(
                "referencing the reconciliation succeeds",
                "Reference the reconciliation events or artifacts before resuming",
                (t, e) -> t.scopedPost("/takeovers", Payloads.HUMAN, resumed("takeover-1", 1)))));
  }

  private static void outsideTheProtocol(List<Walk> all) {
    all.add(
        walk(
            ProtocolErrorId.UNKNOWN_STATE,
            "getWorkSession",
            "ProtocolHost, a path of no operation (404)",
            t -> http(t.send("GET", "/work-session/" + Payloads.WS, t.read(Payloads.HUMAN), null)),
            Remedy.follow(
                "the operation's own path succeeds",
                "one of its paths",
                (t, e) -> t.get(WS_PATH, Payloads.HUMAN))));
    all.add(
        walk(
            ProtocolErrorId.UNKNOWN_STATE,
            "getWorkSession",
            "ProtocolHost, another method (405)",
            t -> http(t.send("DELETE", WS_PATH, t.read(Payloads.HUMAN), null)),
            Remedy.follow(
                "the operation's own method succeeds",
                "that operation's method",
                (t, e) -> t.get(WS_PATH, Payloads.HUMAN))));
  }

  /** The client's own refusals: nothing is sent. */
  private static void client(List<Walk> all) {
    all.add(
        walk(
            ProtocolErrorId.UNKNOWN_STATE,
            "createWorkSession",
            "client ValidationPolicy, a body over the size limit",
            TestHost::started,
            t -> {
              WorkSession ws = workSession("ws-protocol-002");
              ws.setObjective("x".repeat((1 << 20) + 1));
              return local(() -> client(t).createWorkSession(ws));
            },
            Remedy.follow(
                "sending less in one record succeeds",
                "split the content over several records",
                (t, e) -> {
                  client(t).createWorkSession(workSession("ws-protocol-002"));
                  return t.get("/work-sessions/ws-protocol-002", Payloads.HUMAN);
                })));
    all.add(
        walk(
            ProtocolErrorId.MISSING_OBJECTIVE,
            "createWorkSession",
            "client ValidationPolicy, the payload rules",
            TestHost::started,
            t -> {
              WorkSession ws = workSession("ws-protocol-002");
              ws.setObjective(null);
              return local(() -> client(t).createWorkSession(ws));
            },
            Remedy.follow(
                "stating the objective succeeds",
                "State the WorkSession's objective as non-empty text",
                (t, e) -> {
                  client(t).createWorkSession(workSession("ws-protocol-002"));
                  return t.get("/work-sessions/ws-protocol-002", Payloads.HUMAN);
                })));
    all.add(
        walk(
            ProtocolErrorId.STALE_WORK_SESSION_REVISION,
            "recordPolicyDecision",
            "client Pipeline, JarvisStaleSessionException",
            TestHost::withSession,
            t -> {
              JarvisClient agent = client(t).as(Payloads.AGENT);
              agent.recordPolicyDecision(Payloads.WS, decision("pd-1"));
              created(
                  append(
                      t, Payloads.HUMAN, Payloads.event("event-1", "note.added", Payloads.HUMAN)));
              try {
                agent.recordPolicyDecision(Payloads.WS, decision("pd-2"));
              } catch (JarvisStaleSessionException stale) {
                return errorOf(stale);
              }
              return fail("the client did not see the WorkSession move on");
            },
            Remedy.follow(
                "deciding again on the re-read state and retrying succeeds",
                "Re-read the WorkSession, decide again on its current state, and retry",
                (t, e) -> {
                  client(t).as(Payloads.AGENT).recordPolicyDecision(Payloads.WS, decision("pd-2"));
                  return t.get(WS_PATH, Payloads.HUMAN);
                })));
  }

  // --- building blocks ---

  private static Walk walk(
      ProtocolErrorId id,
      String operationId,
      String place,
      Function<TestHost, Object> provoke,
      Remedy remedy) {
    return new Walk(id, operationId, place, TestHost::withSession, provoke, remedy);
  }

  private static Walk walk(
      ProtocolErrorId id,
      String operationId,
      String place,
      Supplier<TestHost> host,
      Function<TestHost, Object> provoke,
      Remedy remedy) {
    return new Walk(id, operationId, place, host, provoke, remedy);
  }

  /** The ProtocolError of a refusal over HTTP. */
  private static JsonNode http(Answer a) {
    assertTrue(a.status() >= 400 && a.status() < 500, a.status() + " " + a.text());
    return a.json();
  }

  private static JsonNode local(Runnable call) {
    try {
      call.run();
    } catch (JarvisProtocolException refused) {
      assertTrue(refused.isLocal(), "sent, not refused locally: " + refused);
      return errorOf(refused);
    }
    return fail("the client did not refuse");
  }

  private static JsonNode errorOf(JarvisProtocolException e) {
    return JarvisJson.mapper().valueToTree(e.error());
  }

  /** The walk's client of its host, one per walk (walks run one at a time on their thread). */
  private static final Map<Thread, JarvisClient> CLIENTS = new ConcurrentHashMap<>();

  private static JarvisClient client(TestHost t) {
    return CLIENTS.computeIfAbsent(
        Thread.currentThread(),
        thread ->
            JarvisClient.create(
                JarvisClientOptions.builder()
                    .baseUri(t.host.baseUri())
                    .hostAuth("Bearer " + TestHost.TOKEN)
                    .actorId(Payloads.HUMAN)
                    .clock(t.clock)
                    .build()));
  }

  private static WorkSession workSession(String id) {
    return convert(Payloads.workSession(id), WorkSession.class);
  }

  private static PolicyDecision decision(String id) {
    return convert(Payloads.decision(id, "summarize", "allow"), PolicyDecision.class);
  }

  private static <T> T convert(JsonNode tree, Class<T> type) {
    try {
      return JarvisJson.mapper().treeToValue(tree, type);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static TestHost withSession(UnaryOperator<HostConfig.Builder> settings) {
    TestHost t = TestHost.started(settings);
    assertEquals(201, t.createSession(Payloads.WS).status());
    return t;
  }

  private static TestHost withOutsider() {
    TestHost t = TestHost.withSession();
    t.register(Payloads.worker("worker-human-999", "human"));
    t.registerActor(Payloads.actor(TestHost.OUTSIDER, "worker-human-999", "human", true));
    return t;
  }

  private static Answer read(TestHost t, UnaryOperator<Map<String, String>> headers) {
    return t.send("GET", WS_PATH, headers.apply(t.read(Payloads.HUMAN)), null);
  }

  private static Answer decide(
      TestHost t, UnaryOperator<Map<String, String>> headers, ObjectNode decision) {
    return decisionPost(t, headers.apply(t.scoped(Payloads.AGENT, t.cursor())), decision);
  }

  private static Answer decisionPost(TestHost t, Map<String, String> headers, ObjectNode body) {
    return t.send("POST", WS_PATH + "/policy-decisions", headers, body.toString());
  }

  private static Answer registerWorker(
      TestHost t, UnaryOperator<Map<String, String>> headers, String id) {
    return t.send(
        "PUT",
        "/workers/" + id,
        headers.apply(t.mutation(TestHost.ADMIN)),
        Payloads.worker(id, "agent").toString());
  }

  private static Map<String, String> genesisHeaders(TestHost t, String actorId) {
    Map<String, String> h = t.mutation(actorId);
    h.put("Jarvis-Expected-WorkSession-Revision", "0");
    h.put("Jarvis-Previous-Event-Hash", "hash:protocol-genesis");
    return h;
  }

  private static Answer genesis(
      TestHost t,
      String actorId,
      ObjectNode workSession,
      UnaryOperator<Map<String, String>> headers) {
    return t.send(
        "POST",
        "/work-sessions",
        headers.apply(genesisHeaders(t, actorId)),
        workSession.toString());
  }

  private static Map<String, String> with(Map<String, String> h, String name, String value) {
    h.put(name, value);
    return h;
  }

  private static Map<String, String> without(Map<String, String> h, String name) {
    h.remove(name);
    return h;
  }

  private static ObjectNode allowSummarize() {
    return Payloads.decision("pd-1", "summarize", "allow");
  }

  private static ObjectNode reviewDecision(String id, String requestId) {
    ObjectNode d = Payloads.decision(id, "fetch_external_source", "review_required");
    d.put("request_id", requestId);
    return d;
  }

  /** An ApprovalScope bound to the Request as the host recorded it. */
  private static ObjectNode scopeOfRecordedRequest(TestHost t, String requestId, String reviewId) {
    ChainCursor at =
        t.host
            .host()
            .config()
            .stores()
            .records()
            .find(dev.jarvis.host.RecordKind.REQUEST, Payloads.WS, requestId)
            .orElseThrow()
            .recordedAt()
            .orElseThrow();
    return Payloads.approvalScope(requestId, reviewId, "pd-1", at.revision(), at.lastEventHash());
  }

  private static ObjectNode resumed(String id, long epoch) {
    ObjectNode r = Payloads.takeover(id, "resumed", epoch);
    r.put("resumed_by_actor_id", Payloads.HUMAN);
    r.put("resolved_at", "2026-06-12T18:19:00Z");
    r.putArray("reconciliation_refs").add("reconciliation:branch-1");
    return r;
  }

  /** A shared Contribution of the human and a second contributor, each in their own role. */
  private static ObjectNode shared(String eventId, String secondWorker, String secondActor) {
    ObjectNode c = Payloads.contribution("contribution-1", eventId);
    c.put("contributor_type", "shared");
    c.withArray("contributor_refs")
        .addObject()
        .put("worker_id", secondWorker)
        .put("actor_id", secondActor)
        .put("contribution_role", secondActor.contains("agent") ? "agent" : "human");
    return c;
  }

  private static Answer humanAcceptsMemory(TestHost t) {
    approved(t, "pd-1", "req-1", "review-1");
    ObjectNode m = Payloads.memoryProposal("memory-1", Payloads.HUMAN, "accepted");
    m.putArray("review_refs").add("review-1");
    return t.scopedPost("/memory-proposals", Payloads.HUMAN, m);
  }

  private static ObjectNode acceptedSkill(String... tools) {
    ObjectNode s = Payloads.skillProposal("skill-1", Payloads.HUMAN, "accepted");
    s.putArray("review_refs").add("review-1");
    var required = s.putArray("required_tools");
    for (String tool : tools) {
      required.add(tool);
    }
    return s;
  }

  private static Answer learningRecordIn(TestHost t, String workSessionId, String id) {
    ObjectNode lr = Payloads.learningRecord(id, "x", Payloads.HUMAN);
    lr.put("work_session_id", workSessionId);
    String genesis =
        t.host.host().config().stores().sessions().events(workSessionId).get(0).path("id").asText();
    lr.putArray("source_event_refs").add(genesis);
    return t.send(
        "POST",
        "/work-sessions/" + workSessionId + "/learning-records",
        t.scoped(Payloads.HUMAN, t.cursorOf(workSessionId)),
        lr.toString());
  }

  private static Answer outcomeReport(TestHost t, String learningRecordId) {
    return t.send(
        "POST",
        "/outcome-reports",
        t.mutation(Payloads.HUMAN),
        Payloads.outcomeReport("outcome-1", learningRecordId).toString());
  }
}
