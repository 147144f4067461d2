package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.ID_TAKEN;
import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.LearningRecord;
import dev.jarvis.model.MemoryProposal;
import dev.jarvis.model.MemoryProposalStatus;
import dev.jarvis.model.Policy;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.SkillProposal;
import dev.jarvis.model.SkillProposalStatus;
import java.util.List;
import java.util.Optional;

/**
 * Learning governance.
 *
 * <ul>
 *   <li>createLearningRecord: {@code source_event_refs} are events of this WorkSession ({@code
 *       missing_jarvis_event}).
 *   <li>createMemoryProposal: only a Review can accept memory. An {@code accepted} proposal by an
 *       agent Actor is {@code model_self_confirmed_memory}, by a tool Actor {@code
 *       tool_self_confirmed_memory}; otherwise its {@code review_refs} must be Reviews recorded in
 *       this WorkSession ({@code silent_memory_mutation}).
 *   <li>createSkillProposal: an {@code accepted} skill by an agent or tool Actor, or without
 *       recorded Reviews, is {@code silent_skill_activation}; an accepted skill whose {@code
 *       required_tools} go beyond the Policy's {@code tool_grants} is {@code
 *       skill_expands_tool_access_without_policy_review} (that takes a Policy change, not a skill
 *       review).
 * </ul>
 */
final class LearningRules {

  Effect learningRecord(ProtocolCall call, SessionView session) {
    JsonNode record = call.body();
    List<String> sources =
        RecordFields.texts(record.path(LearningRecord.JSON_PROPERTY_SOURCE_EVENT_REFS));
    for (int i = 0; i < sources.size(); i++) {
      if (!session.hasEvent(sources.get(i))) {
        throw refuse(
            ProtocolErrorId.MISSING_JARVIS_EVENT,
            "learning_record",
            "/source_event_refs/" + i,
            "No event " + sources.get(i) + " in this WorkSession.");
      }
    }
    // The WorkSession lists its learning records (WorkSession.learning_record_refs).
    return created(call, session, RecordKind.LEARNING_RECORD, "learning_record")
        .listedIn("learning_record_refs");
  }

  Effect memoryProposal(ProtocolCall call, SessionView session) {
    JsonNode proposal = call.body();
    if (MemoryProposalStatus.ACCEPTED
        .getValue()
        .equals(proposal.path(MemoryProposal.JSON_PROPERTY_STATUS).asText())) {
      Optional<ActorType> type = session.actorType(call.actorId());
      if (type.equals(Optional.of(ActorType.AGENT))) {
        throw refuse(
            ProtocolErrorId.MODEL_SELF_CONFIRMED_MEMORY,
            "memory_proposal",
            "/status",
            "An AgentWorker cannot accept its own memory proposal.");
      }
      if (type.equals(Optional.of(ActorType.TOOL))) {
        throw refuse(
            ProtocolErrorId.TOOL_SELF_CONFIRMED_MEMORY,
            "memory_proposal",
            "/status",
            "A tool cannot accept its own memory proposal.");
      }
      requireReviews(proposal, session, ProtocolErrorId.SILENT_MEMORY_MUTATION, "memory_proposal");
    }
    return created(call, session, RecordKind.MEMORY_PROPOSAL, "memory_proposal");
  }

  Effect skillProposal(ProtocolCall call, SessionView session) {
    JsonNode proposal = call.body();
    if (SkillProposalStatus.ACCEPTED
        .getValue()
        .equals(proposal.path(SkillProposal.JSON_PROPERTY_STATUS).asText())) {
      Optional<ActorType> type = session.actorType(call.actorId());
      if (type.filter(t -> t == ActorType.AGENT || t == ActorType.TOOL).isPresent()) {
        throw refuse(
            ProtocolErrorId.SILENT_SKILL_ACTIVATION,
            "skill_proposal",
            "/status",
            "An AgentWorker or tool cannot activate a skill it proposed.");
      }
      requireReviews(proposal, session, ProtocolErrorId.SILENT_SKILL_ACTIVATION, "skill_proposal");
      List<String> grants =
          session
              .policy()
              .map(p -> RecordFields.texts(p.path(Policy.JSON_PROPERTY_TOOL_GRANTS)))
              .orElse(List.of());
      List<String> tools =
          RecordFields.texts(proposal.path(SkillProposal.JSON_PROPERTY_REQUIRED_TOOLS));
      for (int i = 0; i < tools.size(); i++) {
        if (!grants.contains(tools.get(i))) {
          throw refuse(
              ProtocolErrorId.SKILL_EXPANDS_TOOL_ACCESS_WITHOUT_POLICY_REVIEW,
              "skill_proposal",
              "/required_tools/" + i,
              "The Policy grants no tool " + tools.get(i) + "; that needs a Policy review.");
        }
      }
    }
    return created(call, session, RecordKind.SKILL_PROPOSAL, "skill_proposal");
  }

  private static void requireReviews(
      JsonNode proposal, SessionView session, ProtocolErrorId error, String objectType) {
    List<String> reviews =
        RecordFields.texts(proposal.path(SkillProposal.JSON_PROPERTY_REVIEW_REFS));
    if (reviews.isEmpty()) {
      throw refuse(error, objectType, "/review_refs", "Acceptance needs a recorded Review.");
    }
    for (int i = 0; i < reviews.size(); i++) {
      if (session.record(RecordKind.REVIEW, reviews.get(i)).isEmpty()) {
        throw refuse(
            error,
            objectType,
            "/review_refs/" + i,
            "No Review " + reviews.get(i) + " is recorded in this WorkSession.");
      }
    }
  }

  private static Effect created(
      ProtocolCall call, SessionView session, RecordKind kind, String objectType) {
    String id = call.body().path(LearningRecord.JSON_PROPERTY_ID).asText();
    if (session.record(kind, id).isPresent()) {
      throw refuse(
          ProtocolErrorId.INVALID_TRANSITION,
          objectType,
          "/id",
          objectType + " " + id + " is recorded already.",
          ID_TAKEN);
    }
    return Effect.recording(
        objectType + ".created",
        objectType,
        StoredRecord.inSession(kind, id, session.id(), call.body()),
        Optional.empty(),
        call.rawBody());
  }
}
