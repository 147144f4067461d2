package dev.jarvis.core.eventlog;

import dev.jarvis.core.OperationClass;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.model.ProtocolErrorId;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code event-log} capability's one read, {@code GET /work-sessions/{work_session_id}/events}:
 * the spec has only {@code POST} on that path, so the operation is the SDK's, declared in {@code
 * Jarvis-Host-Capabilities} as {@value JarvisHeaders#EVENT_LOG_CAPABILITY}. It is a WorkSession
 * scoped read (the read headers, members only) answered with an {@link EventPage}: the events whose
 * {@code sequence} is greater than {@value #AFTER} (default 0), at most {@value #LIMIT} of them
 * (default {@value #DEFAULT_LIMIT}, at most {@value #MAX_LIMIT}), in chain order.
 */
public final class EventLog {

  /** The capability's name in {@code Jarvis-Host-Capabilities}. */
  public static final String CAPABILITY = JarvisHeaders.EVENT_LOG_CAPABILITY;

  /** Query parameter: the page starts after the event of this sequence; 0 starts at genesis. */
  public static final String AFTER = "after";

  /** Query parameter: the most events the page holds. */
  public static final String LIMIT = "limit";

  /**
   * Query parameter of the {@code event-stream} capability's long poll: when no event follows
   * {@value #AFTER}, wait up to this many seconds (0 to {@value #MAX_WAIT_SECONDS}) for one before
   * answering the empty page.
   */
  public static final String WAIT = "wait";

  /**
   * The longest long poll: short enough that no proxy's idle timeout (commonly 60 s) cuts the
   * answer, long enough that an idle watcher asks twice a minute at most.
   */
  public static final int MAX_WAIT_SECONDS = 30;

  /**
   * The key under which a binding passes the request's raw query string (as it travelled, without
   * {@code ?}) among the call's path parameters: no path parameter can have this name, and the host
   * reads the page from it only after HostAuth, as it reads every other input.
   */
  public static final String RAW_QUERY = "?";

  /** The page size when the request names none. */
  public static final int DEFAULT_LIMIT = 100;

  /**
   * The largest page a host answers: a request for more is refused, not cut, so that a client never
   * mistakes a short page for the end of the log.
   */
  public static final int MAX_LIMIT = 1000;

  /** The name the page's schema goes by where a spec schema name is expected. */
  public static final String PAGE_SCHEMA = "JarvisEventPage";

  /** The operation, in the shape of the spec's operations. */
  public static final ProtocolOperation OPERATION =
      new ProtocolOperation(
          "listJarvisEvents",
          "GET",
          "/work-sessions/{work_session_id}/events",
          OperationClass.WORKSESSION_SCOPED_READ,
          Optional.empty(),
          200,
          PAGE_SCHEMA,
          Optional.empty(),
          Optional.empty());

  private EventLog() {}

  /**
   * The page a request asks for, from its query values as they travelled (absent when the query
   * does not name them); a value that is not a plain decimal in range is refused with {@code
   * unknown_state} at the parameter, as the spec refuses input it has no id for.
   */
  public static PageRequest request(Optional<String> after, Optional<String> limit) {
    long from = after.map(v -> number(AFTER, v, 0, Long.MAX_VALUE)).orElse(0L);
    long size = limit.map(v -> number(LIMIT, v, 1, MAX_LIMIT)).orElse((long) DEFAULT_LIMIT);
    return new PageRequest(from, (int) size);
  }

  /**
   * The {@value #AFTER} and {@value #LIMIT} values of a raw query string (as it travelled, without
   * {@code ?}; empty for none), percent-decoded; other parameters are ignored, as headers an
   * operation does not take are. A parameter named twice, or an escape that is not one, is refused:
   * a page must not depend on which of two values a runtime happens to keep.
   *
   * @throws EventLogQueryException with the refusal
   */
  public static Map<String, String> queryParameters(String rawQuery) {
    return queryParameters(rawQuery, READ_PARAMETERS);
  }

  private static final java.util.Set<String> READ_PARAMETERS = java.util.Set.of(AFTER, LIMIT, WAIT);

  /**
   * The values of the parameters {@code names} in a raw query string, read exactly as {@link
   * #queryParameters(String)} reads the event log's: percent-decoded, others ignored, a parameter
   * named twice or a broken escape refused. For the SDK's other reads that page the same way (the
   * {@code request-inbox} capability).
   *
   * @throws EventLogQueryException with the refusal
   */
  public static Map<String, String> queryParameters(String rawQuery, java.util.Set<String> names) {
    Map<String, String> values = new LinkedHashMap<>();
    if (rawQuery.isEmpty()) {
      return values;
    }
    for (String pair : rawQuery.split("&", -1)) {
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq));
      if (!names.contains(name)) {
        continue;
      }
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      if (values.putIfAbsent(name, value) != null) {
        throw refusal(name, name + " is given more than once.");
      }
    }
    return values;
  }

  /**
   * The page a call asks for, from the raw query string its binding passed under {@link #RAW_QUERY}
   * (none: the first page of the default size).
   *
   * @throws EventLogQueryException with the refusal
   */
  public static PageRequest request(Map<String, String> parameters) {
    Map<String, String> query = queryParameters(parameters.getOrDefault(RAW_QUERY, ""));
    return request(Optional.ofNullable(query.get(AFTER)), Optional.ofNullable(query.get(LIMIT)));
  }

  /**
   * How long a long poll waits ({@value #WAIT}; zero when the query names none), from the raw query
   * string its binding passed under {@link #RAW_QUERY}.
   *
   * @throws EventLogQueryException with the refusal
   */
  public static java.time.Duration waitFor(Map<String, String> parameters) {
    Map<String, String> query = queryParameters(parameters.getOrDefault(RAW_QUERY, ""));
    String value = query.get(WAIT);
    return value == null
        ? java.time.Duration.ZERO
        : java.time.Duration.ofSeconds(number(WAIT, value, 0, MAX_WAIT_SECONDS));
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw refusal("", "The query string is not percent-encoded correctly.");
    }
  }

  /** Compiled once: {@code String.matches} would compile it again for every read. */
  private static final java.util.regex.Pattern CANONICAL_DIGITS =
      java.util.regex.Pattern.compile("0|[1-9][0-9]{0,17}");

  /**
   * A query parameter's decimal value, spelled as {@value #AFTER} is (digits, no sign or leading
   * zeros) and between {@code min} and {@code max}; else refused with {@code unknown_state} at
   * {@code /name}.
   *
   * @throws EventLogQueryException with the refusal
   */
  public static long number(String name, String value, long min, long max) {
    // Digits only, no sign and no leading zeros: one spelling per value, as for revisions.
    if (!CANONICAL_DIGITS.matcher(value).matches()) {
      throw refusal(name, name + " is a decimal integer without sign or leading zeros.");
    }
    long parsed = Long.parseLong(value);
    if (parsed < min || parsed > max) {
      throw refusal(name, name + " is between " + min + " and " + max + ".");
    }
    return parsed;
  }

  /** The refusal of a query parameter: {@code unknown_state} at {@code /name}, as a 400. */
  public static EventLogQueryException refusal(String name, String reason) {
    return new EventLogQueryException(
        ProtocolViolation.of(ProtocolErrorId.UNKNOWN_STATE, "request", "/" + name, reason));
  }

  /**
   * The page a request asks for.
   *
   * @param after the events after this sequence; 0 from genesis
   * @param limit at most this many, 1 to {@link #MAX_LIMIT}
   */
  public record PageRequest(long after, int limit) {

    public PageRequest {
      if (after < 0 || limit < 1 || limit > MAX_LIMIT) {
        throw new IllegalArgumentException("after >= 0 and 1 <= limit <= " + MAX_LIMIT);
      }
    }

    /** The query string, without {@code ?}. */
    public String query() {
      return AFTER + "=" + after + "&" + LIMIT + "=" + limit;
    }
  }
}
