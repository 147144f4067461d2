package dev.jarvis.core.eventlog;

import dev.jarvis.core.headers.JarvisHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * The {@code event-stream} capability's wire form, shared by hosts and clients: the event-log read
 * ({@link EventLog#OPERATION}) answered live as Server-Sent Events (the WHATWG HTML "server-sent
 * events" format). Asked for with {@code Accept: text/event-stream}; it starts after the sequence
 * in {@value #LAST_EVENT_ID} (a reconnection) or else after {@link EventLog#AFTER} (default 0).
 * Every event is one frame, {@code id:} its {@code sequence} and {@code data:} the event as stored
 * on one line; an idle stream carries a {@link #HEARTBEAT} comment; the host ends it with an {@link
 * #end} comment naming why. The rules are in {@code docs/protocol-decisions.md}, "The event-stream
 * capability".
 */
public final class EventStream {

  /** The capability's name in {@code Jarvis-Host-Capabilities}. */
  public static final String CAPABILITY = JarvisHeaders.EVENT_STREAM_CAPABILITY;

  /**
   * The media type of a stream, asked for in {@code Accept} and answered in {@code Content-Type}.
   */
  public static final String MEDIA_TYPE = "text/event-stream";

  /** The request header a reconnecting client names the last sequence it received in. */
  public static final String LAST_EVENT_ID = "Last-Event-ID";

  /** What a host sends while nothing happens, so that a client and proxies see a live stream. */
  public static final String HEARTBEAT = ": heartbeat\n\n";

  /** The comment that opens an {@link #end} line. */
  public static final String END_PREFIX = ": end ";

  private EventStream() {}

  /**
   * Whether an {@code Accept} header asks for a stream: one of its media ranges is {@value
   * #MEDIA_TYPE} (parameters and case aside) with a quality above zero.
   */
  public static boolean isAskedFor(Optional<String> accept) {
    if (accept.isEmpty()) {
      return false;
    }
    for (String range : accept.get().split(",")) {
      String[] parts = range.split(";");
      if (!parts[0].trim().toLowerCase(Locale.ROOT).equals(MEDIA_TYPE)) {
        continue;
      }
      boolean refused = false;
      for (int i = 1; i < parts.length; i++) {
        String parameter = parts[i].trim().toLowerCase(Locale.ROOT).replace(" ", "");
        refused |= parameter.matches("q=0(\\.0{0,3})?");
      }
      if (!refused) {
        return true;
      }
    }
    return false;
  }

  /**
   * The sequence a stream starts after: {@value #LAST_EVENT_ID} when present (a reconnection names
   * where it stopped, whatever the URL it repeats says), else the query's {@link EventLog#AFTER},
   * else 0. Spelled as {@code after} is: decimal digits, no sign, no leading zeros.
   *
   * @param query the request's {@link EventLog#queryParameters query parameters}
   * @throws EventLogQueryException with the refusal ({@code unknown_state} at {@code
   *     /Last-Event-ID} or {@code /after})
   */
  public static long startsAfter(
      Optional<String> lastEventId, java.util.Map<String, String> query) {
    if (lastEventId.isPresent()) {
      return EventLog.number(LAST_EVENT_ID, lastEventId.get().trim(), 0, Long.MAX_VALUE);
    }
    String after = query.get(EventLog.AFTER);
    return after == null ? 0 : EventLog.number(EventLog.AFTER, after, 0, Long.MAX_VALUE);
  }

  /**
   * One event's frame: {@code id: <sequence>}, {@code data: <event>}, a blank line. {@code
   * eventJson} is the event serialized on one line (JSON escapes every line break inside strings).
   */
  public static byte[] frame(long sequence, String eventJson) {
    if (eventJson.indexOf('\n') >= 0 || eventJson.indexOf('\r') >= 0) {
      throw new IllegalArgumentException("an event's data is one line");
    }
    return ("id: " + sequence + "\ndata: " + eventJson + "\n\n").getBytes(StandardCharsets.UTF_8);
  }

  /** The comment a host ends a stream with, naming why ({@code idle}, {@code shutdown}...). */
  public static byte[] end(String reason) {
    return (END_PREFIX + reason + "\n\n").getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Reads a stream line by line (the line terminators removed) into frames, as the format says: a
   * field {@code name: value} (one optional space after the colon), a comment from {@code :}, a
   * blank line dispatching the frame. Not thread-safe: one per connection.
   */
  public static final class Reader {

    private String id;
    private StringBuilder data;

    /** A reader at the start of a stream. */
    public Reader() {}

    /** What one line completed, if anything. */
    public Optional<Item> line(String line) {
      if (line.isEmpty()) {
        if (data == null) {
          id = null;
          return Optional.empty();
        }
        Item item = new Item.Frame(Optional.ofNullable(id), data.toString());
        id = null;
        data = null;
        return Optional.of(item);
      }
      if (line.startsWith(":")) {
        return Optional.of(new Item.Comment(line.substring(1).trim()));
      }
      int colon = line.indexOf(':');
      String name = colon < 0 ? line : line.substring(0, colon);
      String value = colon < 0 ? "" : line.substring(colon + 1);
      if (value.startsWith(" ")) {
        value = value.substring(1);
      }
      if (name.equals("id")) {
        id = value;
      } else if (name.equals("data")) {
        data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
      }
      // "event", "retry" and unknown fields carry nothing this capability uses.
      return Optional.empty();
    }

    /** A frame or a comment. */
    public sealed interface Item {

      /** An event's frame: its {@code id:} (the sequence, as sent) and its {@code data:}. */
      record Frame(Optional<String> id, String data) implements Item {}

      /** A comment line: a heartbeat ({@code heartbeat}) or an end ({@code end <reason>}). */
      record Comment(String text) implements Item {

        /** Why the host ended the stream, if this comment says it did. */
        public Optional<String> endReason() {
          return text.startsWith("end ") ? Optional.of(text.substring(4)) : Optional.empty();
        }
      }
    }
  }
}
