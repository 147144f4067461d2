package dev.jarvis.core.requestread;

import dev.jarvis.core.OperationClass;
import dev.jarvis.core.ProtocolOperation;
import java.util.List;
import java.util.Optional;

/**
 * The {@code request-read} capability's two reads, {@code GET
 * /work-sessions/{work_session_id}/requests/{request_id}} (the Request as the host holds it now,
 * with its {@code status}, {@code resolved_by_review_id}, {@code superseded_by_request_id}…) and
 * {@code GET /work-sessions/{work_session_id}/reviews/{review_id}} (a Review as recorded, its
 * {@code approval_scope} included). The spec has only {@code POST} on the collections and no read
 * of either record, so without them an agent cannot learn how its Request was answered: its events
 * say only that a Review was recorded, not of what or with which decision. The operations are the
 * SDK's, declared in {@code Jarvis-Host-Capabilities} as {@value #CAPABILITY}, answered with the
 * spec's own {@code Request} and {@code Review} schemas. Both are WorkSession-scoped reads (the
 * read headers, members only, due Request expiries written first, as every read).
 */
public final class RequestRead {

  /** The capability's name in {@code Jarvis-Host-Capabilities}. */
  public static final String CAPABILITY = "request-read";

  /** The path parameter naming the Request. */
  public static final String REQUEST_ID = "request_id";

  /** The path parameter naming the Review. */
  public static final String REVIEW_ID = "review_id";

  /** A Request of the WorkSession, as the host holds it now. */
  public static final ProtocolOperation GET_REQUEST =
      read(
          "getRequest",
          "/work-sessions/{work_session_id}/requests/{" + REQUEST_ID + "}",
          "Request");

  /** A Review of the WorkSession, as recorded. */
  public static final ProtocolOperation GET_REVIEW =
      read("getReview", "/work-sessions/{work_session_id}/reviews/{" + REVIEW_ID + "}", "Review");

  private RequestRead() {}

  /** Both reads. */
  public static List<ProtocolOperation> operations() {
    return List.of(GET_REQUEST, GET_REVIEW);
  }

  /** Whether {@code operation} is one of this capability's reads. */
  public static boolean isRead(ProtocolOperation operation) {
    return operation.equals(GET_REQUEST) || operation.equals(GET_REVIEW);
  }

  private static ProtocolOperation read(String operationId, String path, String schema) {
    return new ProtocolOperation(
        operationId,
        "GET",
        path,
        OperationClass.WORKSESSION_SCOPED_READ,
        Optional.empty(),
        200,
        schema,
        Optional.empty(),
        Optional.empty());
  }
}
