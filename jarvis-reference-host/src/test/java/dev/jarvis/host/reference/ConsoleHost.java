package dev.jarvis.host.reference;

import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.host.Credentials;
import dev.jarvis.host.WorkSessionGovernance;
import dev.jarvis.model.Actor;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.Request;
import dev.jarvis.model.RiskClass;
import dev.jarvis.model.Worker;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A reference host serving the review console, with credentials bound to Actors: the admin, two
 * humans (each with a Worker of its own) and one agent that serves both. Its clock starts at the
 * real now, since the browser counts the time left on its own clock; tests move it by hand.
 */
final class ConsoleHost implements AutoCloseable {

  static final String ADMIN = TestHost.ADMIN;
  static final String HUMAN = Payloads.HUMAN;
  static final String HUMAN_WORKER = Payloads.HUMAN_WORKER;
  static final String OTHER_HUMAN = "actor-human-002";
  static final String OTHER_HUMAN_WORKER = "worker-human-002";
  static final String AGENT = Payloads.AGENT;
  static final String AGENT_WORKER = Payloads.AGENT_WORKER;

  static final Map<String, String> TOKENS =
      Map.of(
          ADMIN, "console-token-admin",
          HUMAN, "console-token-human-1",
          OTHER_HUMAN, "console-token-human-2",
          AGENT, "console-token-agent");

  final MutableClock clock =
      new MutableClock(Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
  final ReferenceHost host;
  private final JarvisClient client;

  ConsoleHost() {
    this(UnaryOperator.identity());
  }

  ConsoleHost(UnaryOperator<ReferenceHostConfig.Builder> config) {
    List<Credentials.Credential> credentials = new ArrayList<>();
    TOKENS.forEach(
        (actor, token) ->
            credentials.add(
                new Credentials.Credential(
                    HexFormat.of().parseHex(Credentials.sha256Hex(token)),
                    Set.of(actor),
                    actor.equals(ADMIN))));
    host =
        ReferenceHost.start(
            config
                .apply(
                    ReferenceHostConfig.builder()
                        .auth(Credentials.of(credentials))
                        .console(true)
                        .policy(Payloads.policy())
                        .host(
                            b ->
                                b.clock(clock)
                                    .governance(
                                        WorkSessionGovernance.NONE.assignPolicyToEveryHuman(
                                            Payloads.POLICY))))
                .build());
    client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(host.baseUri())
                .hostAuthPerActor(actor -> java.util.Optional.of("Bearer " + TOKENS.get(actor)))
                .actorId(ADMIN)
                .clock(clock)
                .build());
    JarvisClient admin = client.as(ADMIN);
    for (String[] w :
        new String[][] {
          {HUMAN_WORKER, "human"}, {OTHER_HUMAN_WORKER, "human"}, {AGENT_WORKER, "agent"}
        }) {
      admin.registerWorker(
          JarvisJson.mapper().convertValue(Payloads.worker(w[0], w[1]), Worker.class));
    }
    for (String[] a :
        new String[][] {
          {HUMAN, HUMAN_WORKER, "human"},
          {OTHER_HUMAN, OTHER_HUMAN_WORKER, "human"},
          {AGENT, AGENT_WORKER, "agent"}
        }) {
      admin.registerActor(
          JarvisJson.mapper().convertValue(Payloads.actor(a[0], a[1], a[2], true), Actor.class));
    }
  }

  /** The console's page. */
  URI page() {
    return host.consoleUri().orElseThrow();
  }

  /** A client acting as {@code actorId} with its own token. */
  JarvisClient as(String actorId) {
    return client.as(actorId);
  }

  /** A WorkSession of {@code human} (an Actor of {@code humanWorker}) with the agent. */
  String workSession(String human, String humanWorker) {
    JarvisClient h = as(human);
    return h.createWorkSession(
            h.records()
                .workSession(
                    "Answer with reviewed sources.", humanWorker, AGENT_WORKER, Payloads.POLICY))
        .getId();
  }

  /** The agent's review_required decision and its Request to {@code humanWorker}. */
  Request ask(String ws, String humanWorker, String target, String reason, Duration expiresIn) {
    return ask(ws, humanWorker, target, reason, expiresIn, UnaryOperator.identity());
  }

  /** The same, the Request shaped further before it is sent (agent-written text). */
  Request ask(
      String ws,
      String humanWorker,
      String target,
      String reason,
      Duration expiresIn,
      UnaryOperator<Request> shape) {
    return ask(
        ws,
        humanWorker,
        ProtocolRecords.action("fetch_external_source", target, "scope:source-collection"),
        RiskClass.MEDIUM,
        reason,
        expiresIn,
        shape);
  }

  /** The agent's review_required decision for {@code action} at {@code risk}, and its Request. */
  Request ask(
      String ws,
      String humanWorker,
      PolicyActionRequest action,
      RiskClass risk,
      String reason,
      Duration expiresIn,
      UnaryOperator<Request> shape) {
    JarvisClient agent = as(AGENT);
    PolicyDecision decision =
        agent.recordPolicyDecision(
            ws,
            agent
                .records()
                .policyDecision(
                    ws, Payloads.POLICY, action, risk, PolicyDecisionResult.REVIEW_REQUIRED, reason)
                .requestId(agent.records().newId("req")));
    return agent.createRequest(
        ws, shape.apply(agent.records().request(decision, AGENT_WORKER, humanWorker, expiresIn)));
  }

  @Override
  public void close() {
    client.close();
    host.close();
  }
}
