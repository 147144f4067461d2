package dev.jarvis.core.error;

import dev.jarvis.core.JarvisSpec;
import dev.jarvis.model.ProtocolError;
import dev.jarvis.model.ProtocolErrorId;
import java.util.Objects;

/**
 * One broken protocol rule, found locally or reported by a host: a {@code ProtocolError} before it
 * has a {@code trace_id}.
 *
 * @param errorId the spec's {@code error_id}
 * @param objectType the protocol object the rule belongs to, in the spec's snake_case ({@code
 *     policy_decision}, {@code work_session}, {@code header}, …)
 * @param field where: a JSON Pointer into the payload ({@code /contributor_refs/1}), or a header
 *     name ({@code Jarvis-Request-Timestamp})
 * @param reason what is wrong, for a human
 * @param remediation what to do about it, for a human
 */
public record ProtocolViolation(
    ProtocolErrorId errorId, String objectType, String field, String reason, String remediation) {

  /** The {@code object_type} of a violation found in a protocol header. */
  public static final String HEADER_OBJECT_TYPE = "header";

  public ProtocolViolation {
    Objects.requireNonNull(errorId, "errorId");
    Objects.requireNonNull(objectType, "objectType");
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(remediation, "remediation");
  }

  /** A violation with the catalogue's remediation for its {@code error_id}. */
  public static ProtocolViolation of(
      ProtocolErrorId errorId, String objectType, String field, String reason) {
    return new ProtocolViolation(
        errorId, objectType, field, reason, ProtocolErrorCatalog.remediation(errorId));
  }

  /** A violation of the catalogue's default reason and remediation for its {@code error_id}. */
  public static ProtocolViolation of(ProtocolErrorId errorId, String objectType, String field) {
    return of(errorId, objectType, field, ProtocolErrorCatalog.defaultReason(errorId));
  }

  /**
   * A violation in a protocol header: {@code object_type} {@value #HEADER_OBJECT_TYPE}, {@code
   * field} the header's name as the spec spells it.
   */
  public static ProtocolViolation header(
      ProtocolErrorId errorId, String headerName, String reason) {
    return of(errorId, HEADER_OBJECT_TYPE, headerName, reason);
  }

  /**
   * HostAuth failed: no credential, or one the host does not accept (HTTP 401). The spec has no id
   * of its own for it, so it is {@code unauthorized_actor} at {@code Authorization}, with a
   * remediation about the credential rather than the catalogue's about an Actor's authority.
   */
  public static ProtocolViolation hostAuth(String reason) {
    return new ProtocolViolation(
        ProtocolErrorId.UNAUTHORIZED_ACTOR,
        HEADER_OBJECT_TYPE,
        "Authorization",
        reason,
        ProtocolErrorCatalog.HOST_AUTH_REMEDIATION);
  }

  /** The violation a host reported, without its trace id. */
  public static ProtocolViolation from(ProtocolError error) {
    return new ProtocolViolation(
        error.getErrorId(),
        error.getObjectType(),
        error.getField(),
        error.getReason(),
        error.getRemediation());
  }

  /** Whether it was found in a protocol header. */
  public boolean isHeader() {
    return HEADER_OBJECT_TYPE.equals(objectType);
  }

  /** This violation as an exception, with the given trace id. */
  public JarvisProtocolException toException(String traceId) {
    return JarvisProtocolException.of(this, traceId);
  }

  /** The wire form, with the given trace id. */
  public ProtocolError toProtocolError(String traceId) {
    return new ProtocolError()
        .errorId(errorId)
        .protocolVersion(JarvisSpec.PROTOCOL_VERSION)
        .objectType(objectType)
        .field(field.isEmpty() ? "/" : field)
        .reason(reason)
        .remediation(remediation)
        .traceId(traceId);
  }
}
