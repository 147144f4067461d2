package dev.jarvis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jarvis.model.ReviewDecision;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A human's answer is bounded before anything is sent: no approval without end or limit. */
class HumanAnswerTest {

  @Test
  void anApprovalOutsideItsBoundsIsRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> HumanAnswer.approve(0, Duration.ofMinutes(5), Optional.empty()));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            HumanAnswer.approve(HumanAnswer.MAX_USES + 1, Duration.ofMinutes(5), Optional.empty()));
    assertThrows(
        IllegalArgumentException.class,
        () -> HumanAnswer.approve(1, Duration.ZERO, Optional.empty()));
    assertThrows(
        IllegalArgumentException.class,
        () -> HumanAnswer.approve(1, Duration.ofSeconds(-1), Optional.empty()));
    assertThrows(
        IllegalArgumentException.class,
        () -> HumanAnswer.approve(1, HumanAnswer.MAX_EXPIRES_IN.plusSeconds(1), Optional.empty()));
    assertThrows(
        IllegalArgumentException.class,
        () -> HumanAnswer.approve(1, Duration.ofMinutes(5), Optional.of("  ")));
  }

  @Test
  void onlyApproveNarrowAndDenyAnswerARequest() {
    for (ReviewDecision other :
        new ReviewDecision[] {
          ReviewDecision.ANSWER,
          ReviewDecision.CORRECT,
          ReviewDecision.TAKEOVER,
          ReviewDecision.NEEDS_REVISION
        }) {
      assertThrows(
          IllegalArgumentException.class,
          () -> new HumanAnswer(other, Optional.empty(), 1, Duration.ofMinutes(5)));
    }
    // Positive controls: the bounds themselves are accepted.
    assertEquals(
        HumanAnswer.MAX_USES,
        HumanAnswer.approve(HumanAnswer.MAX_USES, HumanAnswer.MAX_EXPIRES_IN, Optional.empty())
            .maxUses());
    assertEquals(ReviewDecision.DENY, HumanAnswer.deny(Optional.of("No.")).decision());
  }
}
