package dev.jarvis.core.headers;

import dev.jarvis.core.OperationClass;
import java.util.ArrayList;
import java.util.List;

/**
 * The names of the Jarvis protocol headers, spelled as the spec spells them, and which of them an
 * operation class requires. HTTP field names are case-insensitive; these spellings are the ones the
 * SDK sends and the ones used as {@code field} in a header {@code ProtocolError}.
 */
public final class JarvisHeaders {

  /** Request and response: the protocol version, {@code v0.1}. */
  public static final String PROTOCOL_VERSION = "Jarvis-Protocol-Version";

  /** Request: the acting Actor's Jarvis id. */
  public static final String ACTOR_ID = "Jarvis-Actor-Id";

  /** Mutation request: protects replays of one logical mutation. */
  public static final String IDEMPOTENCY_KEY = "Jarvis-Idempotency-Key";

  /** Mutation request: RFC 3339 time of sending, checked against a tolerance. */
  public static final String REQUEST_TIMESTAMP = "Jarvis-Request-Timestamp";

  /** WorkSession mutation request: the WorkSession revision the caller last read. */
  public static final String EXPECTED_WORK_SESSION_REVISION =
      "Jarvis-Expected-WorkSession-Revision";

  /** WorkSession mutation request: the WorkSession's last event hash as the caller last read it. */
  public static final String PREVIOUS_EVENT_HASH = "Jarvis-Previous-Event-Hash";

  /** Read request, optional: capabilities the caller requires of the host. */
  public static final String REQUIRED_CAPABILITIES = "Jarvis-Required-Capabilities";

  /** Read request, optional: extension namespaces the caller requests. */
  public static final String EXTENSIONS = "Jarvis-Extensions";

  /** Response: the optional capabilities the host declares. */
  public static final String HOST_CAPABILITIES = "Jarvis-Host-Capabilities";

  /**
   * The SDK's optional capability (see {@code docs/protocol-decisions.md}): a host listing it in
   * {@link #HOST_CAPABILITIES} reports a WorkSession's cursor after every accepted genesis or
   * scoped mutation in {@link #WORK_SESSION_REVISION} and {@link #LAST_EVENT_HASH}.
   */
  public static final String CURSOR_HEADERS_CAPABILITY = "cursor-headers";

  /**
   * The SDK's optional capability (see {@code docs/protocol-decisions.md}): a host listing it in
   * {@link #HOST_CAPABILITIES} answers {@code GET /work-sessions/{work_session_id}/events} with the
   * WorkSession's events in chain order, a page at a time ({@code dev.jarvis.core.eventlog}).
   */
  public static final String EVENT_LOG_CAPABILITY = "event-log";

  /**
   * The SDK's optional capability (see {@code docs/protocol-decisions.md}): a host listing it in
   * {@link #HOST_CAPABILITIES} (beside {@link #EVENT_LOG_CAPABILITY}) also answers the event-log
   * read live: as Server-Sent Events for {@code Accept: text/event-stream}, and as a long poll for
   * {@code ?after=N&wait=S} ({@code dev.jarvis.core.eventlog.EventStream}).
   */
  public static final String EVENT_STREAM_CAPABILITY = "event-stream";

  /** Response header of the {@code cursor-headers} capability: the revision after the mutation. */
  public static final String WORK_SESSION_REVISION = "Jarvis-WorkSession-Revision";

  /** Response header of the {@code cursor-headers} capability: the last event hash after it. */
  public static final String LAST_EVENT_HASH = "Jarvis-Last-Event-Hash";

  /** The six mutation headers, in the spec's parameter order. */
  public static final List<String> MUTATION =
      List.of(
          PROTOCOL_VERSION,
          ACTOR_ID,
          IDEMPOTENCY_KEY,
          REQUEST_TIMESTAMP,
          EXPECTED_WORK_SESSION_REVISION,
          PREVIOUS_EVENT_HASH);

  /** The read headers, in the spec's parameter order; the last two are optional. */
  public static final List<String> READ =
      List.of(PROTOCOL_VERSION, ACTOR_ID, REQUIRED_CAPABILITIES, EXTENSIONS);

  /** The response headers. */
  public static final List<String> RESPONSE = List.of(PROTOCOL_VERSION, HOST_CAPABILITIES);

  private JarvisHeaders() {}

  /** The headers an operation of this class requires, in the spec's parameter order. */
  public static List<String> required(OperationClass operationClass) {
    List<String> names = new ArrayList<>(List.of(PROTOCOL_VERSION, ACTOR_ID));
    if (operationClass.isMutation()) {
      names.add(IDEMPOTENCY_KEY);
      names.add(REQUEST_TIMESTAMP);
    }
    if (operationClass.needsCursor()) {
      names.add(EXPECTED_WORK_SESSION_REVISION);
      names.add(PREVIOUS_EVENT_HASH);
    }
    return List.copyOf(names);
  }

  /** The optional headers an operation of this class takes, in the spec's parameter order. */
  public static List<String> optional(OperationClass operationClass) {
    return operationClass.isMutation() ? List.of() : List.of(REQUIRED_CAPABILITIES, EXTENSIONS);
  }
}
