package dev.jarvis.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.internal.EventWalk;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventPage;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A WorkSession's event log read a page at a time (the {@code event-log} capability): one page,
 * blocking or on the client's executor, and a walk of many pages ({@link EventWalk}), as a lazy
 * stream or asynchronously. The one reader behind {@link JarvisClient#eventPage}, {@link
 * JarvisClient#events} and {@link SessionAudit}, so they ask for the same pages and end at the same
 * place.
 */
final class EventLogPages {

  private final JarvisClient client;

  EventLogPages(JarvisClient client) {
    this.client = client;
  }

  /** One page, through the client's pipeline, checked. */
  EventPage page(String workSessionId, EventLog.PageRequest page) {
    return client.execute(JarvisCall.listJarvisEvents(workSessionId, page)).body();
  }

  /** {@link #page}, on the client's executor. */
  CompletableFuture<EventPage> pageAsync(String workSessionId, EventLog.PageRequest page) {
    return client
        .executeAsync(JarvisCall.listJarvisEvents(workSessionId, page))
        .thenApply(JarvisResponse::body);
  }

  /**
   * The walk's events in chain order, read lazily: a page is asked for only when the stream needs
   * its first event, so a log of any length streams in constant memory.
   */
  Stream<JsonNode> stream(String workSessionId, EventWalk walk) {
    Iterator<JsonNode> events =
        new Iterator<>() {
          private Iterator<JsonNode> page = Collections.emptyIterator();

          @Override
          public boolean hasNext() {
            while (!page.hasNext()) {
              Optional<EventLog.PageRequest> next = walk.next();
              if (next.isEmpty()) {
                return false;
              }
              page = walk.take(page(workSessionId, next.get())).iterator();
            }
            return true;
          }

          @Override
          public JsonNode next() {
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            return page.next();
          }
        };
    return StreamSupport.stream(
        Spliterators.spliteratorUnknownSize(events, Spliterator.ORDERED | Spliterator.NONNULL),
        false);
  }

  /**
   * The walk's events handed to {@code each} in chain order, a page at a time on the client's
   * executor: the same pages {@link #stream} reads; the future completes after the last.
   */
  CompletableFuture<Void> walkAsync(
      String workSessionId, EventWalk walk, Consumer<? super JsonNode> each) {
    Optional<EventLog.PageRequest> next = walk.next();
    if (next.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    return pageAsync(workSessionId, next.get())
        .thenCompose(
            page -> {
              walk.take(page).forEach(each);
              return walkAsync(workSessionId, walk, each);
            });
  }
}
