package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.ID_TAKEN;
import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.ProtocolRefusal;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordWrite;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.host.StoredSession;
import dev.jarvis.model.Actor;
import dev.jarvis.model.OutcomeReport;
import dev.jarvis.model.ProtocolErrorId;
import java.util.List;
import java.util.Optional;

/**
 * The mutations outside a WorkSession chain. registerWorker and registerActor record (or replace)
 * the reference; an Actor needs a registered Worker ({@code unknown_state}). submitOutcomeReport
 * needs its WorkSession exported, that is terminal and sealed ({@code
 * outcome_report_requires_terminal_source}), and references LearningRecords of that WorkSession
 * ({@code outcome_report_without_learning_record}); only a member of that WorkSession reports on it
 * ({@link Membership}: an unknown WorkSession is refused as a non-member is); it changes neither
 * WorkSession nor manifest.
 */
final class NonSessionMutations {

  private final HostConfig config;
  private final Membership membership;
  private final ResponseFactory responses;

  NonSessionMutations(HostConfig config, Membership membership, ResponseFactory responses) {
    this.config = config;
    this.membership = membership;
    this.responses = responses;
  }

  StoredResponse apply(ProtocolCall call, KeyedCommit commit) {
    JsonNode body = call.body();
    String id = body.path(Actor.JSON_PROPERTY_ID).asText();
    RecordWrite write =
        switch (call.operationId()) {
          case OperationIds.REGISTER_WORKER ->
              RecordWrite.put(StoredRecord.global(RecordKind.WORKER, id, body));
          case OperationIds.REGISTER_ACTOR -> {
            String workerId = body.path(Actor.JSON_PROPERTY_WORKER_ID).asText();
            if (config.stores().records().find(RecordKind.WORKER, workerId).isEmpty()) {
              throw refuse(
                  ProtocolErrorId.UNKNOWN_STATE,
                  "actor",
                  "/worker_id",
                  "No Worker " + workerId + " is registered; register it first.");
            }
            yield RecordWrite.put(StoredRecord.global(RecordKind.ACTOR, id, body));
          }
          case OperationIds.SUBMIT_OUTCOME_REPORT -> outcomeReport(call, body, id);
          default ->
              throw new IllegalStateException(
                  "not a non-WorkSession mutation: " + call.operationId());
        };
    return commit.commit(
        Mutation.records(List.of(write)),
        responses.success(call.operation().successStatus(), call.rawBody(), Optional.empty()),
        () -> recordedAlready(id));
  }

  private RecordWrite outcomeReport(ProtocolCall call, JsonNode report, String id) {
    String actorId = call.actorId();
    String workSessionId = report.path(OutcomeReport.JSON_PROPERTY_WORK_SESSION_ID).asText();
    // No existence oracle: an unknown WorkSession and one the caller is no member of answer alike.
    StoredSession session =
        config.stores().sessions().find(workSessionId).orElseThrow(Membership::notAMember);
    membership.checkStored(
        session.snapshot(), actorId, new CallRecords(config.stores().records(), call));
    if (!session.sealed()) {
      throw refuse(
          ProtocolErrorId.OUTCOME_REPORT_REQUIRES_TERMINAL_SOURCE,
          "outcome_report",
          "/work_session_id",
          "WorkSession " + workSessionId + " has not been exported from a terminal state.");
    }
    List<String> refs =
        RecordFields.texts(report.path(OutcomeReport.JSON_PROPERTY_LEARNING_RECORD_REFS));
    for (int i = 0; i < refs.size(); i++) {
      boolean known =
          config
              .stores()
              .records()
              .find(RecordKind.LEARNING_RECORD, workSessionId, refs.get(i))
              .isPresent();
      if (!known) {
        throw refuse(
            ProtocolErrorId.OUTCOME_REPORT_WITHOUT_LEARNING_RECORD,
            "outcome_report",
            "/learning_record_refs/" + i,
            "No LearningRecord " + refs.get(i) + " in WorkSession " + workSessionId + ".");
      }
    }
    if (config.stores().records().find(RecordKind.OUTCOME_REPORT, id).isPresent()) {
      throw recordedAlready(id);
    }
    return RecordWrite.create(StoredRecord.global(RecordKind.OUTCOME_REPORT, id, report));
  }

  private static ProtocolRefusal recordedAlready(String id) {
    return refuse(
        ProtocolErrorId.INVALID_TRANSITION,
        "outcome_report",
        "/id",
        "OutcomeReport " + id + " is recorded already.",
        ID_TAKEN);
  }
}
