package dev.jarvis.host;

import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventLogQueryException;
import dev.jarvis.core.requestinbox.RequestInbox;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The query string of a request, parsed once, by the request guard after HostAuth, as every other
 * input: only the SDK's paged reads take one, the {@code event-log} read ({@link EventLog}) and the
 * {@code request-inbox} read ({@link RequestInbox}); every spec operation ignores it. Immutable.
 */
public final class ReadQuery {

  private static final ReadQuery NONE =
      new ReadQuery("", Optional.empty(), Duration.ZERO, Optional.empty());

  private final String raw;
  private final Optional<EventLog.PageRequest> eventPage;
  private final Duration eventWait;
  private final Optional<RequestInbox.Query> inbox;

  private ReadQuery(
      String raw,
      Optional<EventLog.PageRequest> eventPage,
      Duration eventWait,
      Optional<RequestInbox.Query> inbox) {
    this.raw = raw;
    this.eventPage = eventPage;
    this.eventWait = eventWait;
    this.inbox = inbox;
  }

  /** No query: what every operation but the paged reads carries. */
  public static ReadQuery none() {
    return NONE;
  }

  /**
   * The query of a request to {@code operation}, read from its raw query string.
   *
   * @param rawQuery the query string as it travelled, without {@code ?}; empty for none
   * @param takesWait whether the {@code event-log} read takes {@value EventLog#WAIT} (a host that
   *     declares the {@code event-stream} capability); elsewhere the parameter is ignored, as every
   *     parameter a read does not take
   * @throws EventLogQueryException with the refusal of a value out of range, a parameter named
   *     twice or a broken escape
   */
  public static ReadQuery parse(ProtocolOperation operation, String rawQuery, boolean takesWait) {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(rawQuery, "rawQuery");
    if (operation.equals(EventLog.OPERATION)) {
      var values = EventLog.queryParameters(rawQuery);
      EventLog.PageRequest page =
          EventLog.request(
              Optional.ofNullable(values.get(EventLog.AFTER)),
              Optional.ofNullable(values.get(EventLog.LIMIT)));
      Duration wait =
          takesWait
              ? Duration.ofSeconds(
                  Optional.ofNullable(values.get(EventLog.WAIT))
                      .map(v -> EventLog.number(EventLog.WAIT, v, 0, EventLog.MAX_WAIT_SECONDS))
                      .orElse(0L))
              : Duration.ZERO;
      return new ReadQuery(rawQuery, Optional.of(page), wait, Optional.empty());
    }
    if (operation.equals(RequestInbox.OPERATION)) {
      return new ReadQuery(
          rawQuery, Optional.empty(), Duration.ZERO, Optional.of(RequestInbox.parse(rawQuery)));
    }
    return NONE;
  }

  /** The query string as it travelled, without {@code ?}; empty for none or where none is read. */
  public String raw() {
    return raw;
  }

  /** The page an {@code event-log} read asks for; the first page of the default size elsewhere. */
  public EventLog.PageRequest eventPage() {
    return eventPage.orElseGet(() -> EventLog.request(Optional.empty(), Optional.empty()));
  }

  /**
   * How long an {@code event-log} long poll waits ({@value EventLog#WAIT}); zero when the query
   * names none or the host does not take it.
   */
  public Duration eventWait() {
    return eventWait;
  }

  /** The {@code request-inbox} read asked for; the first page of pending Requests elsewhere. */
  public RequestInbox.Query inbox() {
    return inbox.orElseGet(RequestInbox.Query::pending);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ReadQuery that
        && raw.equals(that.raw)
        && eventPage.equals(that.eventPage)
        && eventWait.equals(that.eventWait)
        && inbox.equals(that.inbox);
  }

  @Override
  public int hashCode() {
    return Objects.hash(raw, eventPage, eventWait, inbox);
  }

  @Override
  public String toString() {
    return "ReadQuery[" + raw + "]";
  }
}
