package dev.jarvis.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.AwaitPolicy;
import dev.jarvis.client.JarvisInvalidResponseException;
import dev.jarvis.core.chain.ChainBreak;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventPage;
import dev.jarvis.model.JarvisEvent;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Watches a WorkSession by polling its {@code event-log} read: follows the chain from genesis a
 * page at a time after the last sequence seen, verifies every event against its predecessor's hash
 * (as the audit does, with the protocol core's {@link EventChain}), and between reads that find
 * nothing new waits as the {@link AwaitPolicy} says, longer each quiet time, from the start again
 * once an event arrives.
 */
public final class PolledEventLog implements SessionWatch {

  /** Events asked for per read. */
  static final int PAGE = 500;

  private final String workSessionId;
  private final AwaitPolicy policy;
  private final Function<EventLog.PageRequest, CompletableFuture<EventPage>> pages;
  private final Function<Duration, CompletableFuture<Void>> waits;
  private ChainCursor cursor = ChainCursor.GENESIS;
  private int quiet;

  /**
   * @param pages the client's {@code event-log} read of this WorkSession
   * @param waits the client's wait ({@code Sleeper.delay} on its executor)
   */
  public PolledEventLog(
      String workSessionId,
      AwaitPolicy policy,
      Function<EventLog.PageRequest, CompletableFuture<EventPage>> pages,
      Function<Duration, CompletableFuture<Void>> waits) {
    this.workSessionId = workSessionId;
    this.policy = policy;
    this.pages = pages;
    this.waits = waits;
  }

  @Override
  public CompletableFuture<List<JsonNode>> next(Duration atMost) {
    return pages
        .apply(new EventLog.PageRequest(cursor.revision(), PAGE))
        .thenCompose(
            page -> {
              List<JsonNode> events = verified(page);
              if (!events.isEmpty()) {
                quiet = 0;
                return CompletableFuture.completedFuture(events);
              }
              if (atMost.isZero() || atMost.isNegative()) {
                return CompletableFuture.completedFuture(List.of());
              }
              Duration wait = RequestRereads.min(policy.poll(++quiet), atMost);
              return waits.apply(wait).thenApply(done -> List.<JsonNode>of());
            });
  }

  @Override
  public boolean seesEvents() {
    return true;
  }

  /** The page's events, if they continue the chain verified so far; the cursor moves past them. */
  private List<JsonNode> verified(EventPage page) {
    List<JsonNode> events = page.events();
    if (page.hasMore() && events.isEmpty()) {
      // It would be asked for the same page again, for ever.
      throw new JarvisInvalidResponseException(
          200, "/has_more", "an empty page says more events follow");
    }
    Optional<ChainBreak> broken = EventChain.verify(cursor, events);
    if (broken.isPresent()) {
      ChainBreak b = broken.get();
      throw new JarvisInvalidResponseException(
          200,
          "/events" + b.violation().field(),
          "the event log breaks the chain after revision "
              + cursor.revision()
              + ": "
              + b.violation().reason());
    }
    for (int i = 0; i < events.size(); i++) {
      JsonNode event = events.get(i);
      if (!workSessionId.equals(event.path(JarvisEvent.JSON_PROPERTY_WORK_SESSION_ID).asText())) {
        throw new JarvisInvalidResponseException(
            200,
            "/events/" + i + "/work_session_id",
            "an event of another WorkSession in the log of '" + workSessionId + "'");
      }
      cursor = cursor.advance(event.path(JarvisEvent.JSON_PROPERTY_EVENT_HASH).asText());
    }
    return events;
  }
}
