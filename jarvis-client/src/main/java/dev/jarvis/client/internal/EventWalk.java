package dev.jarvis.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisInvalidResponseException;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventPage;
import java.util.List;
import java.util.Optional;

/**
 * Where a walk through a WorkSession's event log stands, page by page: the one walk behind the
 * blocking {@code client.events} stream and audit and the asynchronous audit, so that they ask for
 * the same pages and end at the same place on every page shape. A page with events moves the walk
 * past them; a page that says no more follow ends it; reaching the walk's end (the revision an
 * audit reads up to) ends it too. An empty page that says more follow is off-spec ({@link
 * #shapeOf}): the walk would ask for the same page again for ever. Not thread-safe: one walk is
 * driven by one reader, a page after the last.
 */
public final class EventWalk {

  /** How many events a walk asks for at a time. */
  public static final int PAGE = 500;

  private final long until;
  private long after;
  private boolean more = true;

  private EventWalk(long until) {
    this.until = until;
  }

  /** The whole log, to its last event. */
  public static EventWalk all() {
    return new EventWalk(Long.MAX_VALUE);
  }

  /** The log up to the event of sequence {@code until} (a WorkSession's revision), no further. */
  public static EventWalk upTo(long until) {
    return new EventWalk(until);
  }

  /** The page to ask for next; empty once the log or the walk has ended. */
  public Optional<EventLog.PageRequest> next() {
    if (!more || after >= until) {
      return Optional.empty();
    }
    return Optional.of(new EventLog.PageRequest(after, (int) Math.min(PAGE, until - after)));
  }

  /**
   * The events of the page {@link #next} asked for that the walk keeps (none past its end), in
   * chain order; the walk moves past them.
   *
   * @throws JarvisInvalidResponseException if the page is off-spec ({@link #shapeOf})
   */
  public List<JsonNode> take(EventPage page) {
    // The answer-checks link refused an off-spec page already (with the limit it was asked
    // for); checked again here because a walk that got one would never end.
    shapeOf(page, Integer.MAX_VALUE).ifPresent(off -> fail(off, Optional.empty()));
    List<JsonNode> events = page.events();
    // By count, not by the events' sequences: a doctored page cannot send the reader back.
    int kept = (int) Math.min(events.size(), until - after);
    after += events.size();
    more = page.hasMore();
    return events.subList(0, kept);
  }

  /** What makes a page off-spec, beyond its schema: a field and why. */
  public record OffSpec(String field, String reason) {}

  /**
   * What makes {@code page}, answered to a request for at most {@code limit} events, off-spec
   * though it matches its schema: empty when nothing does. An empty page that says more events
   * follow cannot be: the page holds the events after the requested one, at least one (the limit is
   * at least 1) if any follow. A page of more events than asked for breaks the limit.
   */
  public static Optional<OffSpec> shapeOf(EventPage page, int limit) {
    if (page.hasMore() && page.events().isEmpty()) {
      return Optional.of(
          new OffSpec(
              "/has_more",
              "an empty page says more events follow (it holds the events after the one asked"
                  + " for, so at least one if any follow); asking again would get the same page"));
    }
    if (page.events().size() > limit) {
      return Optional.of(
          new OffSpec(
              "/events",
              "the page holds "
                  + page.events().size()
                  + " events; at most "
                  + limit
                  + " were asked"));
    }
    return Optional.empty();
  }

  /** Throws the failure for an off-spec page. */
  static void fail(OffSpec off, Optional<String> traceId) {
    throw new JarvisInvalidResponseException(200, off.field(), off.reason(), traceId);
  }
}
