package dev.jarvis.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The samples, now built by {@code ProtocolRecords}, are field for field the trees tests and the
 * conformance suite have always sent (written out here as they were hand-built before).
 */
class SampleRecordsTest {

  private static final String AT = "2026-06-12T18:00:00Z";

  static Stream<Arguments> samples() {
    return Stream.of(
        Arguments.of(
            "worker",
            (Supplier<JsonNode>) () -> SampleRecords.worker("worker-h", "human"),
            """
            {"id": "worker-h", "type": "human", "role": "reviewer",
             "authority_scope": {"grants": ["grant:work-session"]},
             "accountability_scope": {"accountable_for": ["work-session"]}}
            """),
        Arguments.of(
            "agent worker",
            (Supplier<JsonNode>) () -> SampleRecords.worker("worker-a", "agent"),
            """
            {"id": "worker-a", "type": "agent", "role": "assistant",
             "authority_scope": {"grants": ["grant:work-session"]},
             "accountability_scope": {"accountable_for": ["work-session"]}}
            """),
        Arguments.of(
            "actor",
            (Supplier<JsonNode>) () -> SampleRecords.actor("actor-h", "worker-h", "human", AT),
            """
            {"id": "actor-h", "worker_id": "worker-h", "type": "human",
             "event_authority": {"can_append_events": true},
             "contribution_scope": {"contribution_roles": ["human"]},
             "created_at": "2026-06-12T18:00:00Z"}
            """),
        Arguments.of(
            "work session",
            (Supplier<JsonNode>)
                () -> SampleRecords.workSession("ws-1", "actor-h", "worker-h", "worker-a", AT),
            """
            {"id": "ws-1", "protocol_version": "v0.1", "created_by_actor_id": "actor-h",
             "objective": "Check the protocol behaviour of a Jarvis host.",
             "human_worker_id": "worker-h", "agent_worker_id": "worker-a",
             "policy_id": "policy-bounded-001", "status": "active", "revision": 0,
             "last_event_hash": "hash:protocol-genesis", "event_log_ref": "event-log:ws-1",
             "created_at": "2026-06-12T18:00:00Z", "updated_at": "2026-06-12T18:00:00Z"}
            """),
        Arguments.of(
            "policy decision",
            (Supplier<JsonNode>) () -> SampleRecords.policyDecision("pd-1", "ws-1", "actor-a", AT),
            """
            {"id": "pd-1", "work_session_id": "ws-1", "actor_id": "actor-a",
             "policy_id": "policy-bounded-001",
             "requested_action": {"action": "read_source", "target_ref": "source:conformance"},
             "normalized_action_hash": "%s",
             "risk_class": "low", "result": "allow",
             "reason": "Reading a public source is within policy.",
             "created_at": "2026-06-12T18:00:00Z"}
            """
                .formatted(
                    dev.jarvis.core.hash.ActionHash.of(
                        json(
                            "{\"action\": \"read_source\","
                                + " \"target_ref\": \"source:conformance\"}")))),
        Arguments.of(
            "contribution",
            (Supplier<JsonNode>)
                () ->
                    SampleRecords.contribution(
                        "contribution-1", "ws-1", "worker-a", "actor-a", "evt-1", AT),
            """
            {"id": "contribution-1", "work_session_id": "ws-1",
             "contributor_refs": [{"worker_id": "worker-a", "actor_id": "actor-a",
                                   "contribution_role": "agent"}],
             "contributor_type": "agent", "contribution_type": "execution",
             "event_refs": ["evt-1"], "created_at": "2026-06-12T18:00:00Z"}
            """),
        Arguments.of(
            "event draft",
            (Supplier<JsonNode>)
                () ->
                    SampleRecords.eventDraft(
                        "evt-1", "ws-1", "actor-h", "work_session.completed", AT),
            """
            {"id": "evt-1", "type": "work_session.completed", "work_session_id": "ws-1",
             "actor_id": "actor-h", "timestamp": "2026-06-12T18:00:00Z",
             "payload": {"object_type": "work_session", "object_id": "ws-1",
                         "action": "completed"}}
            """));
  }

  @ParameterizedTest(name = "the {0} sample is the tree it always was")
  @MethodSource("samples")
  void eachSampleIsTheTreeItAlwaysWas(String name, Supplier<JsonNode> sample, String was) {
    assertEquals(json(was), sample.get());
  }

  private static JsonNode json(String text) {
    try {
      // A record's integers are Longs, so its tree holds them as long nodes; a tree equals
      // another only node type for node type, so the expected text is read the same way.
      return JarvisJson.mapper()
          .reader()
          .with(DeserializationFeature.USE_LONG_FOR_INTS)
          .readTree(text);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException(e);
    }
  }
}
