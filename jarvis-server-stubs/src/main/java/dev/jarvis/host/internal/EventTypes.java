package dev.jarvis.host.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisSpec;
import java.util.Map;
import java.util.Optional;

/**
 * The type of the one event each accepted WorkSession mutation appends. Genesis takes the spec's
 * {@code x-jarvis-genesis-state.accepted_event_type}; appendJarvisEvent appends the client's event,
 * so its type is the body's.
 */
public final class EventTypes {

  /** The genesis event type, read from the spec. */
  public static final String GENESIS =
      genesisState().path("accepted_event_type").asText("work_session.created");

  private static final Map<String, String> BY_OPERATION =
      Map.of(
          "createWorkSession", GENESIS,
          "recordPolicyDecision", "policy_decision.recorded",
          "createRequest", "request.created",
          "recordReview", "review.recorded",
          "recordTakeover", "takeover.recorded",
          "recordContribution", "contribution.recorded",
          "createLearningRecord", "learning_record.created",
          "createMemoryProposal", "memory_proposal.created",
          "createSkillProposal", "skill_proposal.created");

  private EventTypes() {}

  /** The event type an operation appends; for appendJarvisEvent, the body's {@code type}. */
  public static Optional<String> of(String operationId, JsonNode body) {
    if ("appendJarvisEvent".equals(operationId)) {
      return Optional.of(body.path("type").asText());
    }
    return Optional.ofNullable(BY_OPERATION.get(operationId));
  }

  /** The spec's {@code x-jarvis-genesis-state} of createWorkSession. */
  public static JsonNode genesisState() {
    return JarvisSpec.tree()
        .path("paths")
        .path("/work-sessions")
        .path("post")
        .path("x-jarvis-genesis-state");
  }
}
