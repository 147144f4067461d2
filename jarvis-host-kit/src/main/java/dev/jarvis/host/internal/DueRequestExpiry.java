package dev.jarvis.host.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.notification.RequestNotification;
import dev.jarvis.host.ChainWrite;
import dev.jarvis.host.CommitHook;
import dev.jarvis.host.CommitResult;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.HostWrittenEvent;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordWrite;
import dev.jarvis.host.SessionWithRecords;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredSession;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.JarvisEventPayload;
import dev.jarvis.model.WorkSession;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The one place a Request's expiry is written: a {@value RequestLifecycle#EXPIRED_EVENT} event for
 * each open Request whose {@code expires_at} the host clock has reached, one event each. Two paths
 * reach it, by one decision (docs/protocol-decisions.md, "A Request past its time reads expired"):
 * the expiry sweep ({@link #expireDueAsHost}, with no member asking), and every touch of the
 * WorkSession by a member, read or mutation ({@link #expireDue}), so that no answer shows a Request
 * past its {@code expires_at} as open, whenever the sweep runs. Expiry is the host's own write, due
 * whoever touches the WorkSession next: it stands even when the request that found it is then
 * refused. Sealed, terminal and closed WorkSessions take no event, so their Requests stay as they
 * were.
 */
final class DueRequestExpiry {

  private final HostConfig config;
  private final KeyedLocks<String> locks;

  DueRequestExpiry(HostConfig config, KeyedLocks<String> locks) {
    this.config = config;
    this.locks = locks;
  }

  /**
   * Writes the due Request expiries of WorkSession {@code id} as the host's own work, with no
   * member asking: what a member's next touch would write, now (the expiry sweep). Under the
   * WorkSession's lock, through the same conditional commits: where another host instance moved the
   * chain first, this one writes nothing (that instance writes the expiry, or a later sweep finds
   * it done).
   *
   * @return the {@code request.expired} events this call wrote
   */
  int expireDueAsHost(String id) {
    return locks.with(
        id,
        () -> {
          CallRecords reads = new CallRecords(config.stores().records());
          Optional<SessionWithRecords> found =
              config
                  .stores()
                  .findWithRecords(
                      id, RecordKind.REQUEST, RequestLifecycle.OPEN_STATUSES, Set.of());
          if (found.isEmpty()) {
            return 0;
          }
          int[] written = {0};
          expireDue(found.get().session(), found.get().records(), reads, () -> written[0]++);
          return written[0];
        });
  }

  /**
   * Writes the due expiries among {@code openRequests} of {@code session}, read by a member's touch
   * under the WorkSession's lock, and answers the WorkSession after them.
   */
  StoredSession expireDue(
      StoredSession session, List<StoredRecord> openRequests, CallRecords reads) {
    return expireDue(session, openRequests, reads, () -> {});
  }

  /** As above, telling {@code wrote} of each expiry this host committed. */
  private StoredSession expireDue(
      StoredSession session, List<StoredRecord> openRequests, CallRecords reads, Runnable wrote) {
    if (session.sealed()
        || WorkSessionLifecycle.TERMINAL.contains(session.status())
        || WorkSessionLifecycle.CLOSED.equals(session.status())) {
      return session;
    }
    Instant now = config.clock().instant();
    StoredSession current = session;
    for (StoredRecord request : openRequests) {
      if (!RequestLifecycle.isDue(request, now)) {
        continue;
      }
      ChainCursor cursor = current.cursor();
      ObjectNode draft =
          HostEvents.draft(
              current.id(),
              cursor.revision() + 1,
              RequestLifecycle.EXPIRED_EVENT,
              config.adminActorId(),
              now,
              RequestRule.OBJECT,
              request.id());
      ((ObjectNode) draft.path(JarvisEvent.JSON_PROPERTY_PAYLOAD))
          .put(
              JarvisEventPayload.JSON_PROPERTY_SUMMARY,
              RequestLifecycle.fallbackSummary(request.body()));
      ObjectNode event = EventChain.next(cursor, draft);
      ChainCursor next = cursor.advance(event.path(JarvisEvent.JSON_PROPERTY_EVENT_HASH).asText());
      StoredRecord expired =
          RequestLifecycle.expired(request, event.path(JarvisEvent.JSON_PROPERTY_ID).asText(), now);
      ObjectNode snapshot = current.snapshot().deepCopy();
      RequestLifecycle.statusAfterClosing(view(current, reads), request.id())
          .ifPresent(status -> snapshot.put(WorkSession.JSON_PROPERTY_STATUS, status.getValue()));
      HostEvents.stamp(snapshot, next, now);
      StoredSession updated = new StoredSession(snapshot, false);
      // One Mutation per expiry, no idempotency claim: each is the host's own event, committed on
      // the cursor the previous one left, so a conflict stops at a whole expiry.
      HostWrittenEvent written = new HostWrittenEvent(current.id(), event, List.of(expired));
      Mutation unit =
          Mutation.of(
              new ChainWrite.Append(current.id(), cursor, event, updated),
              List.of(RecordWrite.put(expired)));
      if (config.requestNotifications()) {
        Optional<RequestNotification> notice = RequestNotices.of(event, written.records());
        if (notice.isPresent()) {
          unit = unit.notifying(notice.get());
        }
      }
      if (config.commitHook().isPresent()) {
        CommitHook hook = config.commitHook().get();
        unit = unit.within(inside -> hook.beforeHostCommit(written, inside));
      }
      CommitResult result = config.stores().commit(unit);
      if (result.outcome() != CommitResult.Outcome.COMMITTED) {
        // Another host instance moved the chain; it writes the expiry, this request sees it stale.
        return config.stores().sessions().find(current.id()).orElse(current);
      }
      ListenerFailures.contain(() -> config.listener().hostWrote(written));
      wrote.run();
      current = updated;
    }
    return current;
  }

  private SessionView view(StoredSession session, CallRecords reads) {
    return new SessionView(
        session,
        config.stores().records(),
        reads,
        config.stores().sessions(),
        config.defaultPolicy());
  }
}
