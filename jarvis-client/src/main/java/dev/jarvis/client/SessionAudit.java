package dev.jarvis.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.audit.AuditReport;
import dev.jarvis.client.audit.EventLogAudit;
import dev.jarvis.client.internal.EventWalk;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.signature.ActorKeys;
import dev.jarvis.model.WorkSession;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * The audit of a WorkSession from outside its host: reads the WorkSession, walks its event log up
 * to the revision read ({@link EventLogPages}) through an {@link EventLogAudit}, and reports. What
 * {@link JarvisClient#audit} and {@link JarvisClient#auditAsync} delegate to.
 */
final class SessionAudit {

  private final JarvisClient client;
  private final EventLogPages pages;
  private final Optional<ActorKeys> keys;

  SessionAudit(JarvisClient client, EventLogPages pages, Optional<ActorKeys> keys) {
    this.client = client;
    this.pages = pages;
    this.keys = keys;
  }

  /** The blocking audit, with the manifest checks when a manifest is given. */
  AuditReport audit(String workSessionId, Optional<JsonNode> manifest) {
    ChainCursor at = cursorOf(client.getWorkSession(workSessionId));
    EventLogAudit audit = new EventLogAudit(workSessionId, manifest.isPresent(), keys);
    // Up to the revision read: events appended since are not what the WorkSession vouched for.
    try (Stream<JsonNode> events = pages.stream(workSessionId, EventWalk.upTo(at.revision()))) {
      events.forEach(audit::accept);
    }
    return audit.report(Optional.of(at), manifest);
  }

  /** The same audit without a manifest, on the client's executor: the same pages and end. */
  CompletableFuture<AuditReport> auditAsync(String workSessionId) {
    return client
        .executeAsync(JarvisCall.getWorkSession(workSessionId))
        .thenCompose(
            answer -> {
              ChainCursor at = cursorOf(answer.body());
              EventLogAudit audit = new EventLogAudit(workSessionId, false, keys);
              return pages
                  .walkAsync(workSessionId, EventWalk.upTo(at.revision()), audit::accept)
                  .thenApply(done -> audit.report(Optional.of(at), Optional.empty()));
            });
  }

  private static ChainCursor cursorOf(WorkSession session) {
    return new ChainCursor(session.getRevision(), session.getLastEventHash());
  }
}
