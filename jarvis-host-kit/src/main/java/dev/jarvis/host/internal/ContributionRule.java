package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.model.ProtocolErrorId;
import java.util.List;
import java.util.Optional;

/**
 * recordContribution: each contributor ref names a registered Actor of the named registered Worker
 * ({@code invalid_contributor_refs}); {@code event_refs} are events of this WorkSession ({@code
 * missing_jarvis_event}) and {@code review_refs} its Reviews ({@code unknown_state}).
 */
final class ContributionRule implements ScopedRule {

  static final String OBJECT = "contribution";

  @Override
  public Effect apply(ProtocolCall call, SessionView session) {
    JsonNode contribution = call.body();
    String id = contribution.path("id").asText();
    JsonNode refs = contribution.path("contributor_refs");
    for (int i = 0; i < refs.size(); i++) {
      JsonNode ref = refs.get(i);
      String workerId = ref.path("worker_id").asText();
      boolean paired =
          session
                  .global(RecordKind.ACTOR, ref.path("actor_id").asText())
                  .filter(a -> workerId.equals(a.path("worker_id").asText()))
                  .isPresent()
              && session.global(RecordKind.WORKER, workerId).isPresent();
      if (!paired) {
        throw refuse(
            ProtocolErrorId.INVALID_CONTRIBUTOR_REFS,
            OBJECT,
            "/contributor_refs/" + i,
            "The ref does not name a registered Actor of registered Worker " + workerId + ".");
      }
    }
    List<String> events = RecordFields.texts(contribution.path("event_refs"));
    for (int i = 0; i < events.size(); i++) {
      if (!session.hasEvent(events.get(i))) {
        throw refuse(
            ProtocolErrorId.MISSING_JARVIS_EVENT,
            OBJECT,
            "/event_refs/" + i,
            "No event " + events.get(i) + " in this WorkSession.");
      }
    }
    List<String> reviews = RecordFields.texts(contribution.path("review_refs"));
    for (int i = 0; i < reviews.size(); i++) {
      if (session.record(RecordKind.REVIEW, reviews.get(i)).isEmpty()) {
        throw refuse(
            ProtocolErrorId.UNKNOWN_STATE,
            OBJECT,
            "/review_refs/" + i,
            "No Review " + reviews.get(i) + " in this WorkSession.");
      }
    }
    if (session.record(RecordKind.CONTRIBUTION, id).isPresent()) {
      throw refuse(
          ProtocolErrorId.INVALID_TRANSITION,
          OBJECT,
          "/id",
          "Contribution " + id + " is recorded already.");
    }
    return Effect.recording(
        "contribution.recorded",
        OBJECT,
        StoredRecord.inSession(RecordKind.CONTRIBUTION, id, session.id(), contribution),
        Optional.empty(),
        call.rawBody());
  }
}
