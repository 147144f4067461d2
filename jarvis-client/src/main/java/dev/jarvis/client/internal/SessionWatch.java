package dev.jarvis.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Where an await learns that a WorkSession moved on: live on a host with the {@code event-stream}
 * capability ({@link StreamedSessionWatch}: an SSE stream, or long polls {@code ?after=N&wait=S}),
 * else by polling ({@link PolledEventLog}, or {@link RequestRereads} on a host without the event
 * log). The await ({@link ResolutionAwait}) is the same over each.
 */
public interface SessionWatch {

  /**
   * The events appended since the previous call, in chain order, each checked against its
   * predecessor's hash (the first call starts at genesis): completes as soon as there is at least
   * one, or with none once about {@code atMost} has passed (at once for {@link Duration#ZERO}). A
   * broken chain fails it with {@code JarvisInvalidResponseException}.
   */
  CompletableFuture<List<JsonNode>> next(Duration atMost);

  /**
   * Whether it sees the WorkSession's events at all. One that does not only waits, and the await
   * re-reads the Request after every wait.
   */
  boolean seesEvents();

  /** Stops whatever the watch keeps running (a subscription): the await is over. */
  default void close() {}
}
