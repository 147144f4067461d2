package dev.jarvis.core.notification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jarvis.core.notification.RequestNotification.Kind;
import dev.jarvis.core.notification.WebhookVerificationException.Reason;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The receiving side checks the signature and the timestamp window before it parses. */
class WebhookVerifierTest {

  private static final byte[] SECRET = "a-secret-of-at-least-sixteen-bytes".getBytes();
  private static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  private static final RequestNotification NOTIFICATION =
      RequestNotification.of(
          Kind.REQUEST_CREATED,
          "ws-1",
          Optional.of("req-1"),
          "ws-1.event.3",
          3,
          Instant.parse("2026-12-04T09:59:58Z"));

  private final WebhookVerifier verifier = WebhookVerifier.builder(SECRET).clock(CLOCK).build();

  private static Map<String, List<String>> signed(byte[] secret, long timestamp, byte[] body) {
    String signature = WebhookSignature.withSecret(secret).sign(NOTIFICATION.id(), timestamp, body);
    return Map.of(
        "jarvis-webhook-id", List.of(NOTIFICATION.id()),
        "Jarvis-Webhook-Timestamp", List.of(Long.toString(timestamp)),
        "JARVIS-WEBHOOK-SIGNATURE", List.of(signature));
  }

  private Reason refusal(Map<String, List<String>> headers, byte[] body) {
    return assertThrows(WebhookVerificationException.class, () -> verifier.verify(headers, body))
        .reason();
  }

  @Test
  void aSignedDeliveryVerifiesAndReadsAsTheNotificationSent() throws Exception {
    byte[] body = NOTIFICATION.toJson();
    assertEquals(NOTIFICATION, verifier.verify(signed(SECRET, NOW.getEpochSecond(), body), body));
  }

  @Test
  void aTamperedBodyIsRefusedBeforeItIsParsed() {
    byte[] body = NOTIFICATION.toJson();
    Map<String, List<String>> headers = signed(SECRET, NOW.getEpochSecond(), body);
    byte[] tampered =
        new String(body, StandardCharsets.UTF_8)
            .replace("req-1", "req-2")
            .getBytes(StandardCharsets.UTF_8);
    assertEquals(Reason.BAD_SIGNATURE, refusal(headers, tampered));
    // Not JSON at all, wrongly signed: refused as a bad signature, never parsed.
    assertEquals(Reason.BAD_SIGNATURE, refusal(headers, "{not json".getBytes()));
  }

  @Test
  void aDeliverySignedWithAnotherSecretIsRefused() {
    byte[] body = NOTIFICATION.toJson();
    byte[] other = "another-secret-of-sixteen-bytes!".getBytes();
    assertEquals(Reason.BAD_SIGNATURE, refusal(signed(other, NOW.getEpochSecond(), body), body));
  }

  @Test
  void anOldOrFutureTimestampIsRefusedEvenWhenCorrectlySigned() {
    byte[] body = NOTIFICATION.toJson();
    long old = NOW.minus(Duration.ofMinutes(5)).minusSeconds(1).getEpochSecond();
    assertEquals(Reason.TIMESTAMP_OUTSIDE_WINDOW, refusal(signed(SECRET, old, body), body));
    long future = NOW.plus(Duration.ofMinutes(6)).getEpochSecond();
    assertEquals(Reason.TIMESTAMP_OUTSIDE_WINDOW, refusal(signed(SECRET, future, body), body));
    // Positive control: at the window's edge it passes.
    long edge = NOW.minus(Duration.ofMinutes(5)).getEpochSecond();
    assertEquals(Reason.BAD_SIGNATURE, refusal(signed(SECRET, edge, body), new byte[0]));
  }

  @Test
  void aMissingHeaderIsRefused() {
    byte[] body = NOTIFICATION.toJson();
    assertEquals(Reason.MISSING_HEADER, refusal(Map.of(), body));
    assertEquals(
        Reason.MISSING_HEADER,
        refusal(
            Map.of(
                WebhookSignature.ID, List.of(NOTIFICATION.id()),
                WebhookSignature.TIMESTAMP, List.of("yesterday"),
                WebhookSignature.SIGNATURE, List.of("v1=x")),
            body));
  }

  @Test
  void aSignatureOverAnotherIdIsRefused() {
    byte[] body = NOTIFICATION.toJson();
    Map<String, List<String>> headers =
        Map.of(
            WebhookSignature.ID, List.of("ws-1/4"),
            WebhookSignature.TIMESTAMP, List.of(Long.toString(NOW.getEpochSecond())),
            WebhookSignature.SIGNATURE,
                List.of(
                    WebhookSignature.withSecret(SECRET)
                        .sign(NOTIFICATION.id(), NOW.getEpochSecond(), body)));
    assertEquals(Reason.BAD_SIGNATURE, refusal(headers, body));
  }

  @Test
  void aWellSignedBodyWhoseIdIsNotTheHeadersIsRefused() {
    RequestNotification other =
        RequestNotification.of(Kind.REVIEW, "ws-1", Optional.of("req-1"), "ws-1.event.4", 4, NOW);
    byte[] body = other.toJson();
    assertEquals(Reason.MALFORMED_BODY, refusal(signed(SECRET, NOW.getEpochSecond(), body), body));
  }

  @Test
  void oneOfSeveralSignaturesMatchingIsEnoughWhileASecretRotates() throws Exception {
    byte[] body = NOTIFICATION.toJson();
    long ts = NOW.getEpochSecond();
    String old =
        WebhookSignature.withSecret("the-old-secret-sixteen-bytes".getBytes())
            .sign(NOTIFICATION.id(), ts, body);
    String current = WebhookSignature.withSecret(SECRET).sign(NOTIFICATION.id(), ts, body);
    Map<String, List<String>> headers =
        Map.of(
            WebhookSignature.ID, List.of(NOTIFICATION.id()),
            WebhookSignature.TIMESTAMP, List.of(Long.toString(ts)),
            WebhookSignature.SIGNATURE, List.of(old + " v0=ignored " + current));
    assertEquals(NOTIFICATION, verifier.verify(headers, body));
  }

  @Test
  void aShortSecretIsRefusedAndNoneIsEverShown() {
    assertThrows(IllegalArgumentException.class, () -> WebhookSignature.withSecret("short"));
    assertFalse(WebhookSignature.withSecret(SECRET).toString().contains("secret-of"));
  }

  @Test
  void theWireFormIgnoresMembersALaterHostAddsAndRefusesAMissingOne() {
    String json = new String(NOTIFICATION.toJson(), StandardCharsets.UTF_8);
    assertEquals(NOTIFICATION, RequestNotification.fromJson(json.replace("{", "{\"later\":1,")));
    assertThrows(
        IllegalArgumentException.class,
        () -> RequestNotification.fromJson(json.replace("\"kind\"", "\"kinds\"")));
  }
}
