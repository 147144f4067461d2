package dev.jarvis.core.error;

import dev.jarvis.model.ProtocolError;
import dev.jarvis.model.ProtocolErrorId;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;

/**
 * A protocol refusal: a host answered with a {@code ProtocolError}, or the SDK refused locally
 * before sending. Switch on {@link #errorId()}:
 *
 * <pre>{@code
 * try {
 *   client.execute(call);
 * } catch (JarvisProtocolException e) {
 *   switch (e.errorId()) {
 *     case STALE_WORK_SESSION_REVISION, INVALID_PREVIOUS_EVENT_HASH -> reReadAndDecideAgain();
 *     case STALE_REQUEST_TIMESTAMP -> checkClock(e.reason());
 *     default -> log.warn("{} at {}: {} ({})", e.errorId(), e.field(), e.reason(), e.traceId());
 *   }
 * }
 * }</pre>
 *
 * <p>A local refusal may find several violations at once (for example every missing header): the
 * exception speaks for the first, {@link #violations()} has them all.
 */
public class JarvisProtocolException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The {@code trace_id} of a refusal made locally, before anything was sent. */
  public static final String LOCAL_TRACE_ID = "trace:local";

  private final ProtocolErrorId errorId;
  private final boolean local;
  private final transient ProtocolError error;
  private final transient List<ProtocolViolation> violations;

  /** A refusal reported by a host. */
  public JarvisProtocolException(ProtocolError error) {
    this(error, List.of(), false);
  }

  /**
   * A refusal described by {@code error}, with every violation found ({@code error} describes the
   * first; empty when only {@code error} is known).
   */
  protected JarvisProtocolException(
      ProtocolError error, List<ProtocolViolation> violations, boolean local) {
    super(message(error, violations.size()));
    this.error = error;
    this.errorId = error.getErrorId();
    this.violations = List.copyOf(violations);
    this.local = local;
  }

  /** A refusal of one violation, as a host sends it or a local check raises it. */
  public static JarvisProtocolException of(ProtocolViolation violation, String traceId) {
    return of(List.of(violation), traceId);
  }

  /** A refusal of several violations (at least one); the first is the one reported. */
  public static JarvisProtocolException of(List<ProtocolViolation> violations, String traceId) {
    return create(violations, traceId, false);
  }

  /** A local refusal, before anything was sent; its trace id is {@value #LOCAL_TRACE_ID}. */
  public static JarvisProtocolException local(ProtocolViolation violation) {
    return local(List.of(violation));
  }

  /**
   * A local refusal of several violations (at least one), before anything was sent; its trace id is
   * {@value #LOCAL_TRACE_ID}.
   */
  public static JarvisProtocolException local(List<ProtocolViolation> violations) {
    return create(violations, LOCAL_TRACE_ID, true);
  }

  private static JarvisProtocolException create(
      List<ProtocolViolation> violations, String traceId, boolean local) {
    Objects.requireNonNull(traceId, "traceId");
    if (violations.isEmpty()) {
      throw new IllegalArgumentException("a refusal needs at least one violation");
    }
    return new JarvisProtocolException(
        violations.get(0).toProtocolError(traceId), violations, local);
  }

  private static String message(ProtocolError error, int violationCount) {
    Objects.requireNonNull(error, "error");
    Objects.requireNonNull(error.getErrorId(), "error.error_id");
    String more = violationCount > 1 ? " (and " + (violationCount - 1) + " more)" : "";
    return error.getErrorId().getValue()
        + " at "
        + error.getField()
        + ": "
        + error.getReason()
        + more
        + " [trace "
        + error.getTraceId()
        + "]";
  }

  /** The parsed {@code ProtocolError}. */
  public ProtocolError error() {
    return error;
  }

  /** The typed {@code error_id}. */
  public ProtocolErrorId errorId() {
    return errorId;
  }

  /** Whether the {@code error_id} is {@code id}. */
  public boolean is(ProtocolErrorId id) {
    return errorId == id;
  }

  /** Whether the {@code error_id} is one of these. */
  public boolean isAnyOf(ProtocolErrorId first, ProtocolErrorId... more) {
    return EnumSet.of(first, more).contains(errorId);
  }

  /** Whether the SDK refused locally, before anything was sent. */
  public boolean isLocal() {
    return local;
  }

  /** The {@code object_type}: {@code header} for a header refusal. */
  public String objectType() {
    return error.getObjectType();
  }

  /** The {@code field}: a JSON Pointer into the payload, or a header name. */
  public String field() {
    return error.getField();
  }

  /** The {@code reason}, for a human. */
  public String reason() {
    return error.getReason();
  }

  /** The {@code remediation}, for a human. */
  public String remediation() {
    return error.getRemediation();
  }

  /** The {@code trace_id}; {@value #LOCAL_TRACE_ID} for a local refusal. */
  public String traceId() {
    return error.getTraceId();
  }

  /** The refusal as a violation, without its trace id. */
  public ProtocolViolation violation() {
    return violations.isEmpty() ? ProtocolViolation.from(error) : violations.get(0);
  }

  /** Every violation found: the reported one first. A host reports one. */
  public List<ProtocolViolation> violations() {
    return violations.isEmpty() ? List.of(ProtocolViolation.from(error)) : violations;
  }
}
