package dev.jarvis.core;

import java.util.Optional;

/**
 * One operation of the spec, with the {@code x-jarvis-*} rules that travel with it.
 *
 * @param operationId the spec's operationId
 * @param httpMethod {@code GET}, {@code POST} or {@code PUT}
 * @param path the path template
 * @param operationClass {@code x-jarvis-operation-class}
 * @param requestSchema the request body's schema name, if the operation has a body
 * @param successStatus the HTTP status of success (200, 201 or 202)
 * @param responseSchema the success response's schema name
 * @param pathBodyMatch {@code x-jarvis-path-body-id-match}, if any
 * @param actorBodyMatch {@code x-jarvis-actor-body-id-match}, if any
 */
public record ProtocolOperation(
    String operationId,
    String httpMethod,
    String path,
    OperationClass operationClass,
    Optional<String> requestSchema,
    int successStatus,
    String responseSchema,
    Optional<IdMatch> pathBodyMatch,
    Optional<IdMatch> actorBodyMatch) {

  /**
   * A rule that a body field must equal a path parameter or header.
   *
   * @param source the path parameter name ({@code work_session_id}) or header ({@code
   *     Jarvis-Actor-Id})
   * @param bodyField the body field that must match
   * @param rejectionId the {@code error_id} when it does not
   */
  public record IdMatch(String source, String bodyField, String rejectionId) {}
}
