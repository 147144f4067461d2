package dev.jarvis.client.governed;

import dev.jarvis.core.hash.ActionHash;
import dev.jarvis.core.policy.PlannedAction;
import dev.jarvis.model.PolicyDecisionResult;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The record ids and {@code Idempotency-Key}s of one governed action, all derived from its action
 * key, so a re-run finds what an earlier run recorded. The digest covers the WorkSession, the
 * acting Actor, the key and the action itself (its hash and declared risk): the same key for
 * another action, or by another Actor, names another action.
 *
 * <p>A decision's id ends in its result ({@code -allow}, {@code -narrow}, {@code -review}, {@code
 * -deny}): a host writes no result into its {@code policy_decision.recorded} event, so that is how
 * a re-run learns from the log what was decided. Only one decision per action is ever recorded.
 */
final class ActionKeys {

  private final String digest;

  private ActionKeys(String digest) {
    this.digest = digest;
  }

  static ActionKeys of(String workSessionId, String actorId, String key, PlannedAction planned) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (String part :
          new String[] {
            workSessionId,
            actorId,
            key,
            ActionHash.of(planned.action()),
            planned.riskClass().getValue()
          }) {
        sha.update(part.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
      }
      return new ActionKeys(HexFormat.of().formatHex(sha.digest(), 0, 16));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }

  /** The id prefix every decision of this action has. */
  String decisionPrefix() {
    return "pd-" + digest + "-";
  }

  String decisionId(PolicyDecisionResult result) {
    return decisionPrefix() + code(result);
  }

  String requestId() {
    return "req-" + digest;
  }

  /** The one event of the action: performed or failed, never both. */
  String eventId() {
    return "evt-" + digest;
  }

  String decisionKey() {
    return "governed-" + digest + "-decision";
  }

  String requestKey() {
    return "governed-" + digest + "-request";
  }

  String eventKey() {
    return "governed-" + digest + "-event";
  }

  /** The result a decision id of this action names, if it is one. */
  java.util.Optional<PolicyDecisionResult> resultOf(String decisionId) {
    if (!decisionId.startsWith(decisionPrefix())) {
      return java.util.Optional.empty();
    }
    String code = decisionId.substring(decisionPrefix().length());
    for (PolicyDecisionResult result : PolicyDecisionResult.values()) {
      if (code(result).equals(code)) {
        return java.util.Optional.of(result);
      }
    }
    return java.util.Optional.empty();
  }

  private static String code(PolicyDecisionResult result) {
    return switch (result) {
      case ALLOW -> "allow";
      case NARROW -> "narrow";
      case REVIEW_REQUIRED -> "review";
      case DENY -> "deny";
    };
  }
}
