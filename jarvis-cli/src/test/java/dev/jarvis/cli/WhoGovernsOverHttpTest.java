package dev.jarvis.cli;

import static dev.jarvis.cli.ServeCommandTest.client;
import static dev.jarvis.cli.ServeCommandTest.sha256;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.error.JarvisProtocolException;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.WorkSession;
import dev.jarvis.model.WorkerType;
import dev.jarvis.samples.SampleRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #37 over HTTP against {@code serve --credentials}, each token bound to its own Actor: the
 * agent's own credential can open no WorkSession under a Policy that is not its human's, nor for a
 * human it was not configured to serve, nor for a human Worker no one can answer for; its
 * configured flow still works, and so does the human's own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class WhoGovernsOverHttpTest {

  static final String HUMAN_WORKER = "worker-human-001";
  static final String UNANSWERED_WORKER = "worker-human-002";
  static final String STRANGER_WORKER = "worker-human-003";
  static final String AGENT_WORKER = "worker-agent-001";
  static final String OTHER_AGENT_WORKER = "worker-agent-002";
  static final String OWN_POLICY = "policy-human-001";
  static final String FOREIGN_POLICY = "policy-permissive-777";

  @TempDir static Path dir;
  private ServeCommandTest.Serving serving;
  private JarvisClient admin;
  private JarvisClient human;
  private JarvisClient agent;

  private Path policyFile(String id, String owner, boolean permissive) throws Exception {
    ObjectNode p = JarvisJson.mapper().valueToTree(SampleRecords.policyRecord());
    p.put("id", id).put("owner_worker_id", owner);
    if (permissive) {
      p.put("autonomy_level", "full_execute_in_scope");
      p.putArray("review_required_actions");
      p.putArray("escalation_rules");
      p.withArray("allowed_actions").addObject().put("action", "publish_answer");
    }
    return Files.writeString(dir.resolve(id + ".json"), p.toString());
  }

  @BeforeAll
  void serve() throws Exception {
    Path credentials =
        Files.writeString(
            dir.resolve("credentials.json"),
            """
            [{"token_sha256": "%s", "actors": ["host-admin"], "admin": true},
             {"token_sha256": "%s", "actors": ["actor-human-001"], "admin": false},
             {"token_sha256": "%s", "actors": ["actor-agent-001"], "admin": false}]
            """
                .formatted(sha256("admin-token"), sha256("human-token"), sha256("agent-token")));
    serving =
        ServeCommandTest.Serving.start(
            "--port",
            "0",
            "--credentials",
            credentials.toString(),
            "--store",
            "memory",
            "--policy",
            policyFile(OWN_POLICY, HUMAN_WORKER, false).toString(),
            "--policy",
            policyFile(FOREIGN_POLICY, "worker-someone-else", true).toString(),
            "--agent-serves",
            AGENT_WORKER + "=" + HUMAN_WORKER,
            // The agent serves the unanswered human too, under a Policy assigned to it: only the
            // missing Actor stands in the way.
            "--agent-serves",
            AGENT_WORKER + "=" + UNANSWERED_WORKER,
            "--assign-policy",
            OWN_POLICY + "=" + UNANSWERED_WORKER);
    admin = client(serving.url(), "admin-token", "host-admin");
    human = client(serving.url(), "human-token", "actor-human-001");
    agent = client(serving.url(), "agent-token", "actor-agent-001");
    ProtocolRecords records = admin.records();
    for (String humanWorker : new String[] {HUMAN_WORKER, UNANSWERED_WORKER, STRANGER_WORKER}) {
      admin.registerWorker(records.worker(humanWorker, WorkerType.HUMAN, "reviewer"));
    }
    for (String agentWorker : new String[] {AGENT_WORKER, OTHER_AGENT_WORKER}) {
      admin.registerWorker(records.worker(agentWorker, WorkerType.AGENT, "assistant"));
    }
    admin.registerActor(records.actor("actor-human-001", HUMAN_WORKER, ActorType.HUMAN));
    admin.registerActor(records.actor("actor-agent-001", AGENT_WORKER, ActorType.AGENT));
  }

  @AfterAll
  void stop() throws Exception {
    serving.stop();
  }

  private static WorkSession session(
      JarvisClient by, String humanWorker, String agentWorker, String policyId) {
    return by.records()
        .workSession("Answer with reviewed sources.", humanWorker, agentWorker, policyId);
  }

  private static ProtocolErrorId refused(JarvisClient by, WorkSession session) {
    return assertThrows(JarvisProtocolException.class, () -> by.createWorkSession(session))
        .errorId();
  }

  @Test
  void the_agent_cannot_open_a_worksession_under_a_policy_held_for_another_owner() {
    assertEquals(
        ProtocolErrorId.MISSING_POLICY,
        refused(agent, session(agent, HUMAN_WORKER, AGENT_WORKER, FOREIGN_POLICY)));
  }

  @Test
  void the_agent_cannot_open_a_worksession_for_a_human_it_was_not_configured_to_serve() {
    assertEquals(
        ProtocolErrorId.UNAUTHORIZED_ACTOR,
        refused(agent, session(agent, STRANGER_WORKER, AGENT_WORKER, OWN_POLICY)));
  }

  @Test
  void the_agent_cannot_open_a_worksession_for_a_human_worker_no_one_can_answer_for() {
    assertEquals(
        ProtocolErrorId.UNKNOWN_STATE,
        refused(agent, session(agent, UNANSWERED_WORKER, AGENT_WORKER, OWN_POLICY)));
  }

  @Test
  void the_agent_cannot_name_another_agents_worker_as_its_worksessions_agent() {
    assertEquals(
        ProtocolErrorId.UNAUTHORIZED_ACTOR,
        refused(agent, session(agent, HUMAN_WORKER, OTHER_AGENT_WORKER, OWN_POLICY)));
  }

  @Test
  void the_agent_opens_a_worksession_for_the_human_it_serves_under_that_humans_policy() {
    WorkSession created =
        agent.createWorkSession(session(agent, HUMAN_WORKER, AGENT_WORKER, OWN_POLICY));
    assertEquals(1L, created.getRevision());
  }

  @Test
  void the_human_opens_its_own_worksession_under_its_own_policy_but_not_under_a_foreign_one() {
    assertEquals(
        1L,
        human
            .createWorkSession(session(human, HUMAN_WORKER, AGENT_WORKER, OWN_POLICY))
            .getRevision());
    assertEquals(
        ProtocolErrorId.MISSING_POLICY,
        refused(human, session(human, HUMAN_WORKER, AGENT_WORKER, FOREIGN_POLICY)));
  }
}
