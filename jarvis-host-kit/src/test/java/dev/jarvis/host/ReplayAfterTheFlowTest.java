package dev.jarvis.host;

import static dev.jarvis.host.KitHost.AGENT;
import static dev.jarvis.host.KitHost.HUMAN;
import static dev.jarvis.host.KitHost.WS;
import static dev.jarvis.host.KitHost.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jarvis.samples.SampleRecords;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A client's retry may come long after its first request was applied: after the WorkSession moved
 * on, after the approval it used was spent, after the WorkSession was completed and sealed. The
 * host runs a retried mutation's rules before it finds the stored answer (it looks the key up only
 * when the mutation does not commit), so every rule must end in that stored answer, byte for byte,
 * and write nothing.
 */
class ReplayAfterTheFlowTest {

  @Test
  void everyMutationOfAWholeFlowReplaysItsFirstAnswerOnceTheWorkSessionIsSealed() {
    KitHost kit = new KitHost();
    ok(kit.createSession(WS));
    kit.approvedFetch(WS, "pd-1", "req-1", "rev-1");
    ok(
        kit.append(
            WS, AGENT, "evt-1", "agent.action", KitHost.citing("fetch_external_source", "pd-1")));
    ok(
        kit.scoped(
            "createLearningRecord",
            WS,
            HUMAN,
            KitHost.json(
                """
                {"id": "lr-1", "work_session_id": "%s", "created_by_actor_id": "%s",
                 "subject_type": "pair", "subject_ref": "pair:human-agent",
                 "lesson_type": "process", "source_event_refs": ["evt-1"],
                 "review_state": "proposed", "scope": "scope:project", "created_at": "%s"}
                """
                    .formatted(WS, HUMAN, kit.now()))));
    ok(
        kit.scoped(
            "recordTakeover", WS, HUMAN, kit.takeover(WS, "to-1", HUMAN, "scope:a", "locked", 1)));
    ok(
        kit.scoped(
            "recordTakeover", WS, HUMAN, kit.takeover(WS, "to-1", HUMAN, "scope:a", "resumed", 1)));
    ok(
        kit.scoped(
            "recordContribution",
            WS,
            AGENT,
            SampleRecords.contribution(
                "c-1", WS, KitHost.AGENT_WORKER, AGENT, "evt-1", kit.now())));
    kit.completeAndExport(WS);
    ok(
        kit.scoped(
            "submitOutcomeReport",
            WS,
            HUMAN,
            KitHost.json(
                """
                {"id": "outcome-1", "work_session_id": "%s", "source_ref": "source:customer",
                 "reporter_ref": "reporter:customer-1", "accepted_by_actor_id": "%s",
                 "outcome": "The answer held up.", "learning_record_refs": ["lr-1"],
                 "received_at": "%s"}
                """
                    .formatted(WS, HUMAN, kit.now()))));
    Object sealed = kit.state(WS);

    Set<String> replayed = new TreeSet<>();
    for (KitHost.Sent request : List.copyOf(kit.sent)) {
      assertEquals(request.first(), request.again().get(), request.operationId());
      replayed.add(request.operationId());
    }

    assertEquals(sealed, kit.state(WS));
    assertEquals(
        Set.of(
            "registerWorker",
            "registerActor",
            "createWorkSession",
            "recordPolicyDecision",
            "createRequest",
            "recordReview",
            "appendJarvisEvent",
            "createLearningRecord",
            "recordTakeover",
            "recordContribution",
            "submitOutcomeReport"),
        replayed);
  }
}
