package dev.jarvis.host;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.model.ProtocolErrorId;
import java.util.Objects;
import java.util.Optional;

/**
 * What handling one checked call came to ({@link ProtocolHost#handleCall}).
 *
 * @param call the call
 * @param outcome accepted, replayed, refused or failed
 * @param response the answer to send, byte for byte
 * @param appendedEvent the event this call appended; empty for a read, a replay, a refusal, a
 *     failure and a mutation outside any WorkSession
 * @param errorId for a refusal or a failure, the answer's {@code error_id}
 * @param traceId for a refusal or a failure, the answer's {@code trace_id}
 */
public record HandledCall(
    ProtocolCall call,
    Outcome outcome,
    StoredResponse response,
    Optional<JsonNode> appendedEvent,
    Optional<ProtocolErrorId> errorId,
    Optional<String> traceId) {

  /** How a call ended. */
  public enum Outcome {
    /** Applied now: a read answered, or a mutation committed. */
    ACCEPTED,
    /** A retry of an accepted mutation, answered with the first response; nothing was written. */
    REPLAYED,
    /** A rule was broken; nothing was written. */
    REFUSED,
    /**
     * The host itself failed: 500, or 503 when its store could not serve now (nothing was written,
     * or, when the store lost the commit's answer, a retry with the same key settles it).
     */
    FAILED
  }

  public HandledCall {
    Objects.requireNonNull(call, "call");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(response, "response");
    Objects.requireNonNull(appendedEvent, "appendedEvent");
    Objects.requireNonNull(errorId, "errorId");
    Objects.requireNonNull(traceId, "traceId");
  }

  /** Whether this answer repeats a first response (an idempotent retry). */
  public boolean replay() {
    return outcome == Outcome.REPLAYED;
  }
}
