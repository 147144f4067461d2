package dev.jarvis.client.internal;

import dev.jarvis.client.JarvisCall;
import dev.jarvis.client.JarvisInvalidResponseException;
import dev.jarvis.client.JarvisRefusalException;
import dev.jarvis.client.JarvisStaleSessionException;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import dev.jarvis.core.OperationClass;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.WorkSession;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Per call: keeps each WorkSession's cursor (revision and last event hash). On the way down it
 * sends the cursor a mutation expects (genesis for a new WorkSession; for a scoped mutation the
 * known cursor, or the one a re-read of the WorkSession finds). On the way back it learns the new
 * cursor: from a WorkSession record, from an appended event, or from the {@code cursor-headers}
 * capability; otherwise it forgets it, so the next mutation re-reads. A refusal because the
 * WorkSession moved on is followed by a re-read and reported as {@link
 * JarvisStaleSessionException}; the call is not replayed.
 */
public final class SessionCursorPolicy implements ScopedPolicy {

  private static final Set<ProtocolErrorId> STALE_SESSION =
      Set.of(
          ProtocolErrorId.STALE_WORK_SESSION_REVISION, ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH);

  private final SessionCursors cursors;

  public SessionCursorPolicy(SessionCursors cursors) {
    this.cursors = cursors;
  }

  @Override
  public String name() {
    return "work-session-cursor";
  }

  @Override
  public CompletableFuture<PipelineResponse> send(
      PipelineRequest request, Next next, CallScope scope) {
    OperationClass kind = request.operation().operationClass();
    if (!kind.needsCursor()) {
      return next.send(request).thenApply(answer -> learned(request, answer, null));
    }
    CompletableFuture<ChainCursor> cursor =
        kind == OperationClass.WORKSESSION_GENESIS_MUTATION
            ? CompletableFuture.completedFuture(ChainCursor.GENESIS)
            : cursors
                .get(sessionOf(request))
                .map(CompletableFuture::completedFuture)
                .orElseGet(() -> reread(request, scope));
    return cursor.thenCompose(
        sent ->
            next.send(
                    request.withHeaders(
                        Map.of(
                            JarvisHeaders.EXPECTED_WORK_SESSION_REVISION,
                            Long.toString(sent.revision()),
                            JarvisHeaders.PREVIOUS_EVENT_HASH,
                            sent.lastEventHash())))
                .handle(
                    (answer, failure) ->
                        failure == null
                            ? CompletableFuture.completedFuture(learned(request, answer, sent))
                            : staleOrFailed(request, FailureCause.of(failure), scope))
                .thenCompose(outcome -> outcome));
  }

  /** The cursor this sent the request with, as the headers carry it. */
  static ChainCursor sentCursor(PipelineRequest request) {
    return new ChainCursor(
        Long.parseLong(request.header(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION).orElseThrow()),
        request.header(JarvisHeaders.PREVIOUS_EVENT_HASH).orElseThrow());
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

  private CompletableFuture<PipelineResponse> staleOrFailed(
      PipelineRequest request, Throwable failure, CallScope scope) {
    if (failure instanceof JarvisRefusalException refusal
        && STALE_SESSION.contains(refusal.errorId())) {
      String session = sessionOf(request);
      cursors.forget(session);
      return reread(request, scope)
          .thenCompose(
              current ->
                  CompletableFuture.failedFuture(
                      new JarvisStaleSessionException(
                          refusal.error(), refusal.call().orElse(""), session, current)));
    }
    return CompletableFuture.failedFuture(failure);
  }

  /** Reads the WorkSession through the whole pipeline, as the same Actor, in the same scope. */
  private CompletableFuture<ChainCursor> reread(PipelineRequest request, CallScope scope) {
    String session = sessionOf(request);
    return scope
        .call(JarvisCall.getWorkSession(session), request.actorId())
        .thenApply(
            answer ->
                cursors
                    .get(session)
                    .orElseGet(() -> cursorOf((WorkSession) answer.record().orElseThrow())));
  }

  private static String sessionOf(PipelineRequest request) {
    return request
        .call()
        .workSessionId()
        .orElseThrow(() -> new IllegalArgumentException(request.call() + " names no WorkSession"));
  }

  private static ChainCursor cursorOf(WorkSession session) {
    return new ChainCursor(session.getRevision(), session.getLastEventHash());
  }
}
