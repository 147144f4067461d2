package dev.jarvis.core.requestinbox;

import dev.jarvis.core.OperationClass;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventLogQueryException;
import dev.jarvis.model.RequestStatus;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The {@code request-inbox} capability's one read, {@code GET /inbox/requests}: the Requests whose
 * {@code target_human_worker_id} is the calling Actor's Worker, across WorkSessions, with a {@code
 * status} among {@value #STATUS} (default {@code pending}), in the host's write order, after the
 * cursor {@value #AFTER} (default 0: from the first), at most {@value #LIMIT} of them (default
 * {@value #DEFAULT_LIMIT}, at most {@value #MAX_LIMIT}); {@value #WAIT} makes it a long poll. The
 * path names no Actor or Worker: the read is always the caller's own, so it has no id to probe. It
 * answers an {@link InboxPage}. Its query is spelled and refused as the {@code event-log} read's.
 */
public final class RequestInbox {

  /** The capability's name in {@code Jarvis-Host-Capabilities}. */
  public static final String CAPABILITY = "request-inbox";

  /** The read's path: no parameter, the caller is named by {@code Jarvis-Actor-Id}. */
  public static final String PATH = "/inbox/requests";

  /**
   * Query parameter: the Request statuses wanted, comma-separated values of the spec's {@code
   * RequestStatus} (each at most once); default {@code pending}.
   */
  public static final String STATUS = "status";

  /** Query parameter: the page starts after this cursor (a page's {@code next_after}); 0: first. */
  public static final String AFTER = EventLog.AFTER;

  /** Query parameter: the most Requests the page holds. */
  public static final String LIMIT = EventLog.LIMIT;

  /**
   * Query parameter: when no Request follows {@value #AFTER}, wait up to this many seconds (0 to
   * {@value #MAX_WAIT_SECONDS}) for one before answering the empty page.
   */
  public static final String WAIT = EventLog.WAIT;

  /** The page size when the request names none. */
  public static final int DEFAULT_LIMIT = EventLog.DEFAULT_LIMIT;

  /** The largest page: a request for more is refused, not cut. */
  public static final int MAX_LIMIT = EventLog.MAX_LIMIT;

  /** The longest long poll, as the event log's. */
  public static final int MAX_WAIT_SECONDS = EventLog.MAX_WAIT_SECONDS;

  /** The statuses read when the request names none: the Requests no one has seen to yet. */
  public static final Set<String> DEFAULT_STATUSES = Set.of(RequestStatus.PENDING.getValue());

  /** The name the page's schema goes by where a spec schema name is expected. */
  public static final String PAGE_SCHEMA = "JarvisInboxPage";

  /**
   * The operation, in the shape of the spec's operations. Its class gives it the read headers; it
   * is scoped to the caller, not to a WorkSession, and names none.
   */
  public static final ProtocolOperation OPERATION =
      new ProtocolOperation(
          "listInboxRequests",
          "GET",
          PATH,
          OperationClass.WORKSESSION_SCOPED_READ,
          Optional.empty(),
          200,
          PAGE_SCHEMA,
          Optional.empty(),
          Optional.empty());

  private static final Set<String> PARAMETERS = Set.of(STATUS, AFTER, LIMIT, WAIT);

  private static final Set<String> STATUS_VALUES =
      Arrays.stream(RequestStatus.values())
          .map(RequestStatus::getValue)
          .collect(Collectors.toUnmodifiableSet());

  private RequestInbox() {}

  /**
   * The read a raw query string asks for (as it travelled, without {@code ?}; empty for none).
   * Other parameters are ignored, as headers an operation does not take are.
   *
   * @throws EventLogQueryException with the refusal: {@code unknown_state} at {@code /status},
   *     {@code /after}, {@code /limit} or {@code /wait}
   */
  public static Query parse(String rawQuery) {
    Map<String, String> values = EventLog.queryParameters(rawQuery, PARAMETERS);
    Set<String> statuses =
        Optional.ofNullable(values.get(STATUS))
            .map(RequestInbox::statuses)
            .orElse(DEFAULT_STATUSES);
    long after =
        Optional.ofNullable(values.get(AFTER))
            .map(v -> EventLog.number(AFTER, v, 0, Long.MAX_VALUE))
            .orElse(0L);
    long limit =
        Optional.ofNullable(values.get(LIMIT))
            .map(v -> EventLog.number(LIMIT, v, 1, MAX_LIMIT))
            .orElse((long) DEFAULT_LIMIT);
    long wait =
        Optional.ofNullable(values.get(WAIT))
            .map(v -> EventLog.number(WAIT, v, 0, MAX_WAIT_SECONDS))
            .orElse(0L);
    return new Query(statuses, after, (int) limit, Duration.ofSeconds(wait));
  }

  /** Whether a raw query asks to wait (a {@value #WAIT} other than 0), read without refusing. */
  public static boolean asksToWait(String rawQuery) {
    try {
      String wait = EventLog.queryParameters(rawQuery, PARAMETERS).get(WAIT);
      return wait != null && !wait.equals("0");
    } catch (EventLogQueryException malformed) {
      return false;
    }
  }

  private static Set<String> statuses(String value) {
    Set<String> statuses = new LinkedHashSet<>();
    for (String status : value.split(",", -1)) {
      // Exact spelling: no trimming or case folding, as every other enum value of the protocol.
      if (!STATUS_VALUES.contains(status)) {
        throw EventLog.refusal(
            STATUS,
            STATUS
                + " is a comma-separated list of Request statuses ("
                + String.join(", ", specStatuses())
                + ").");
      }
      if (!statuses.add(status)) {
        throw EventLog.refusal(STATUS, STATUS + " names " + status + " more than once.");
      }
    }
    return Collections.unmodifiableSet(statuses);
  }

  private static java.util.List<String> specStatuses() {
    return Arrays.stream(RequestStatus.values()).map(RequestStatus::getValue).toList();
  }

  /**
   * One inbox read.
   *
   * @param statuses the Request statuses wanted (at least one, each a {@code RequestStatus} value)
   * @param after the Requests after this cursor; 0 from the first
   * @param limit at most this many, 1 to {@link #MAX_LIMIT}
   * @param waitFor how long to wait for one when none follows {@code after}; zero answers at once
   */
  public record Query(Set<String> statuses, long after, int limit, Duration waitFor) {

    public Query {
      statuses = Collections.unmodifiableSet(new LinkedHashSet<>(statuses));
      Objects.requireNonNull(waitFor, "waitFor");
      if (statuses.isEmpty() || !STATUS_VALUES.containsAll(statuses)) {
        throw new IllegalArgumentException("statuses are RequestStatus values, at least one");
      }
      if (after < 0 || limit < 1 || limit > MAX_LIMIT) {
        throw new IllegalArgumentException("after >= 0 and 1 <= limit <= " + MAX_LIMIT);
      }
      if (waitFor.isNegative() || waitFor.compareTo(Duration.ofSeconds(MAX_WAIT_SECONDS)) > 0) {
        throw new IllegalArgumentException("0 <= wait <= " + MAX_WAIT_SECONDS + " s");
      }
    }

    /** The first page of pending Requests, of the default size, answered at once. */
    public static Query pending() {
      return new Query(DEFAULT_STATUSES, 0, DEFAULT_LIMIT, Duration.ZERO);
    }

    /** The same read after {@code cursor}. */
    public Query after(long cursor) {
      return new Query(statuses, cursor, limit, waitFor);
    }

    /** The same read, waiting up to {@code seconds} (whole seconds are sent). */
    public Query waiting(Duration seconds) {
      return new Query(statuses, after, limit, Duration.ofSeconds(seconds.toSeconds()));
    }

    /** The query string, without {@code ?}; {@value #WAIT} only when it is not zero. */
    public String query() {
      String query =
          STATUS
              + "="
              + String.join(",", statuses)
              + "&"
              + AFTER
              + "="
              + after
              + "&"
              + LIMIT
              + "="
              + limit;
      return waitFor.isZero() ? query : query + "&" + WAIT + "=" + waitFor.toSeconds();
    }
  }
}
