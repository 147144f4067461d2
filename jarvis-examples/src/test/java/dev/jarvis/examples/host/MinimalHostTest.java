package dev.jarvis.examples.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.RetryPolicy;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.error.JarvisProtocolException;
import dev.jarvis.model.Actor;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.OutcomeReport;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.WorkSession;
import dev.jarvis.model.Worker;
import dev.jarvis.samples.SampleRecords;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MinimalHostTest {

  private HttpServer server;
  private JarvisClient client;

  @BeforeEach
  void start() throws Exception {
    server = MinimalHost.start("secret", SampleRecords.policy());
    client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri("http://127.0.0.1:" + server.getAddress().getPort())
                .hostAuth("Bearer secret")
                .actorId("actor-human-001")
                .retryPolicy(RetryPolicy.NONE)
                .build());
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private static <T> T record(Class<T> type, String json) throws Exception {
    return JarvisJson.mapper().readValue(json, type);
  }

  private void registerPair() throws Exception {
    JarvisClient admin = client.as("host-admin");
    for (String type : new String[] {"human", "agent"}) {
      admin.registerWorker(
          record(
              Worker.class,
              """
              {"id": "worker-%s-001", "type": "%s", "role": "r",
               "authority_scope": {"grants": ["g"]}, "accountability_scope": {"accountable_for": ["a"]}}
              """
                  .formatted(type, type)));
      admin.registerActor(
          record(
              Actor.class,
              """
              {"id": "actor-%s-001", "worker_id": "worker-%s-001", "type": "%s",
               "event_authority": {"can_append_events": true},
               "contribution_scope": {"contribution_roles": ["%s"]},
               "created_at": "2026-01-01T00:00:00Z"}
              """
                  .formatted(type, type, type, type)));
    }
  }

  @Test
  void theTwoImplementedInterfacesSpeakTheWholeProtocolForTheirOperations() throws Exception {
    registerPair();
    String now = Instant.now().toString();
    WorkSession created =
        client.createWorkSession(
            record(
                WorkSession.class,
                """
                {"id": "ws-minimal", "protocol_version": "v0.1", "created_by_actor_id": "actor-human-001",
                 "objective": "Try the minimal host.", "human_worker_id": "worker-human-001",
                 "agent_worker_id": "worker-agent-001", "policy_id": "policy-bounded-001",
                 "status": "active", "revision": 0, "last_event_hash": "hash:protocol-genesis",
                 "event_log_ref": "event-log:ws-minimal", "created_at": "%s", "updated_at": "%s"}
                """
                    .formatted(now, now)));
    assertEquals(1, created.getRevision());

    ObjectNode note = JarvisJson.mapper().createObjectNode();
    note.put("type", "note.added");
    note.putObject("payload").put("object_type", "work_session").put("action", "noted");
    JarvisEvent event =
        client.appendJarvisEvent(
            "ws-minimal", JarvisJson.mapper().treeToValue(note, JarvisEvent.class));

    assertEquals(
        new ChainCursor(2, event.getEventHash()), client.cursor("ws-minimal").orElseThrow());
    assertEquals(2, client.getWorkSession("ws-minimal").getRevision());
  }

  @Test
  void anOperationTheHostDoesNotImplementIsARefusalNotACrash() throws Exception {
    OutcomeReport report =
        record(
            OutcomeReport.class,
            """
            {"id": "o-1", "work_session_id": "ws-x", "source_ref": "s", "reporter_ref": "r",
             "accepted_by_actor_id": "actor-human-001", "outcome": "ok",
             "learning_record_refs": ["l-1"], "received_at": "2026-01-01T00:00:00Z"}
            """);
    JarvisProtocolException e =
        assertThrows(JarvisProtocolException.class, () -> client.submitOutcomeReport(report));
    assertEquals(ProtocolErrorId.UNKNOWN_STATE, e.errorId());
    assertEquals("No protocol operation exists at this path.", e.reason());
  }
}
