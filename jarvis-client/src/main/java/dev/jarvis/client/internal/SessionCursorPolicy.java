package dev.jarvis.client.internal;

import dev.jarvis.client.JarvisInvalidResponseException;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import dev.jarvis.core.OperationClass;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.model.WorkSession;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Per call: keeps each WorkSession's cursor (revision and last event hash). On the way down it
 * writes the cursor the pipeline chose for a mutation ({@link CallExchange#cursor()}: genesis, the
 * known one, or a re-read's) into {@code Jarvis-Expected-WorkSession-Revision} and {@code
 * Jarvis-Previous-Event-Hash}; nothing reads it back from them. On the way back it learns the new
 * cursor: from a WorkSession record, from an appended event, or from the {@code cursor-headers}
 * capability; otherwise it forgets it, so that the pipeline re-reads before the next mutation.
 */
public final class SessionCursorPolicy implements JarvisPolicy {

  /** The link's name, where the pipeline runs its cursor step. */
  public static final String NAME = "work-session-cursor";

  private final SessionCursors cursors;

  public SessionCursorPolicy(SessionCursors cursors) {
    this.cursors = cursors;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public CompletableFuture<PipelineResponse> send(PipelineRequest request, Next next) {
    Optional<ChainCursor> sent = request.context().cursor();
    if (sent.isEmpty()) {
      return ReadyStages.thenApply(next.send(request), answer -> learned(request, answer, null));
    }
    return ReadyStages.thenApply(
        next.send(
            request.withHeaders(
                Map.of(
                    JarvisHeaders.EXPECTED_WORK_SESSION_REVISION,
                    Long.toString(sent.get().revision()),
                    JarvisHeaders.PREVIOUS_EVENT_HASH,
                    sent.get().lastEventHash()))),
        answer -> learned(request, answer, sent.get()));
  }

  private PipelineResponse learned(
      PipelineRequest request, PipelineResponse answer, ChainCursor sent) {
    Object record = answer.record().orElse(null);
    if (record instanceof WorkSession session) {
      cursors.set(session.getId(), cursorOf(session));
    } else if (EventChainPolicy.builds(request)) {
      // The event chain link below has checked the stored event against the one sent.
      cursors.set(sessionOf(request), sent.advance(answer.json().path("event_hash").asText()));
    } else if (request.operation().operationClass() == OperationClass.WORKSESSION_SCOPED_MUTATION) {
      Optional<ChainCursor> reported;
      try {
        reported = HostCursorHeaders.read(answer.headers());
      } catch (IllegalArgumentException e) {
        throw new JarvisInvalidResponseException(
            answer.status(), HostCursorHeaders.REVISION, e.getMessage());
      }
      String session = sessionOf(request);
      reported.ifPresentOrElse(c -> cursors.set(session, c), () -> cursors.forget(session));
    }
    return answer;
  }

  private static String sessionOf(PipelineRequest request) {
    return request
        .call()
        .workSessionId()
        .orElseThrow(() -> new IllegalArgumentException(request.call() + " names no WorkSession"));
  }

  static ChainCursor cursorOf(WorkSession session) {
    return new ChainCursor(session.getRevision(), session.getLastEventHash());
  }
}
