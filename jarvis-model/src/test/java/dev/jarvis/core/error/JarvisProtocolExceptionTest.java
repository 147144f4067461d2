package dev.jarvis.core.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.model.ProtocolError;
import dev.jarvis.model.ProtocolErrorId;
import java.util.List;
import org.junit.jupiter.api.Test;

class JarvisProtocolExceptionTest {

  private static final ProtocolViolation MISSING_KEY =
      ProtocolViolation.header(
          ProtocolErrorId.MISSING_IDEMPOTENCY_KEY,
          "Jarvis-Idempotency-Key",
          "Jarvis-Idempotency-Key is absent.");

  private static final ProtocolViolation STALE =
      ProtocolViolation.header(
          ProtocolErrorId.STALE_REQUEST_TIMESTAMP,
          "Jarvis-Request-Timestamp",
          "Jarvis-Request-Timestamp is stale.");

  @Test
  void aViolationWithATraceIdBecomesTheProtocolErrorAHostSends() {
    JarvisProtocolException e = JarvisProtocolException.of(MISSING_KEY, "trace:abc-1");

    assertEquals(ProtocolErrorId.MISSING_IDEMPOTENCY_KEY, e.errorId());
    assertEquals("header", e.objectType());
    assertEquals("Jarvis-Idempotency-Key", e.field());
    assertEquals("Jarvis-Idempotency-Key is absent.", e.reason());
    assertEquals(
        ProtocolErrorCatalog.remediation(ProtocolErrorId.MISSING_IDEMPOTENCY_KEY), e.remediation());
    assertEquals("trace:abc-1", e.traceId());
    assertEquals("v0.1", e.error().getProtocolVersion());
    assertEquals(MISSING_KEY, e.violation());
    assertEquals(List.of(MISSING_KEY), e.violations());
    assertFalse(e.isLocal());
    assertEquals(
        "missing_idempotency_key at Jarvis-Idempotency-Key: Jarvis-Idempotency-Key is absent."
            + " [trace trace:abc-1]",
        e.getMessage());
  }

  @Test
  void aLocalRefusalKeepsEveryViolationAndSpeaksForTheFirst() {
    JarvisProtocolException e = JarvisProtocolException.local(List.of(MISSING_KEY, STALE));

    assertTrue(e.isLocal());
    assertEquals(JarvisProtocolException.LOCAL_TRACE_ID, e.traceId());
    assertEquals(ProtocolErrorId.MISSING_IDEMPOTENCY_KEY, e.errorId());
    assertEquals(List.of(MISSING_KEY, STALE), e.violations());
    assertTrue(e.getMessage().contains("(and 1 more)"), e.getMessage());
  }

  @Test
  void aRefusalNeedsAtLeastOneViolation() {
    assertThrows(IllegalArgumentException.class, () -> JarvisProtocolException.local(List.of()));
  }

  @Test
  void aHostsProtocolErrorReadsBackAsItsViolation() {
    ProtocolError error =
        new ProtocolError()
            .errorId(ProtocolErrorId.MISSING_POLICY_DECISION)
            .protocolVersion("v0.1")
            .objectType("jarvis_event")
            .field("policy_decision_id")
            .reason("AgentWorker action affected WorkSession state without prior PolicyDecision.")
            .remediation("Record PolicyDecision before accepting the AgentWorker action.")
            .traceId("trace:protocol-error-001");
    JarvisProtocolException e = new JarvisProtocolException(error);

    assertEquals(ProtocolViolation.from(error), e.violation());
    assertEquals(List.of(e.violation()), e.violations());
    assertEquals(error, e.violation().toProtocolError("trace:protocol-error-001"));
    assertFalse(e.violation().isHeader());
  }

  @Test
  void callersCanSwitchOnTheErrorId() {
    JarvisProtocolException e = STALE.toException("trace:x");

    String handled =
        switch (e.errorId()) {
          case STALE_REQUEST_TIMESTAMP -> "check the clock";
          case STALE_WORK_SESSION_REVISION, INVALID_PREVIOUS_EVENT_HASH -> "re-read";
          default -> "give up";
        };
    assertEquals("check the clock", handled);
    assertTrue(e.is(ProtocolErrorId.STALE_REQUEST_TIMESTAMP));
    assertTrue(
        e.isAnyOf(
            ProtocolErrorId.MISSING_REQUEST_TIMESTAMP, ProtocolErrorId.STALE_REQUEST_TIMESTAMP));
    assertFalse(e.isAnyOf(ProtocolErrorId.MISSING_ACTOR));
  }

  @Test
  void aViolationWithoutReasonTakesTheCataloguesDefault() {
    ProtocolViolation v =
        ProtocolViolation.of(ProtocolErrorId.POLICY_DENIED, "policy_decision", "/result");
    assertEquals(ProtocolErrorCatalog.defaultReason(ProtocolErrorId.POLICY_DENIED), v.reason());
  }
}
