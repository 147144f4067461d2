package dev.jarvis.client.governed;

import dev.jarvis.model.ApprovalScope;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.PolicyDecision;
import java.time.OffsetDateTime;
import java.util.Objects;
import java.util.Optional;

/**
 * What the work of a {@link GovernedAction} is permitted to do, handed to {@link
 * GovernedWork#perform}.
 *
 * @param actionKey the action's key: give it to the tool as its own idempotency key where the tool
 *     takes one, so a re-run after a crash between the work and its record does not act twice
 *     (docs/governed-actions.md, "Crash and re-run")
 * @param decision the recorded PolicyDecision the work runs under ({@code allow}, {@code narrow} or
 *     {@code review_required} with an approval)
 * @param action the action to perform: the ApprovalScope's {@code approved_action} where a human
 *     approved (it may be narrower than the one asked for), else the decision's
 * @param approval the approving Review's ApprovalScope, for a reviewed action
 */
public record Permit(
    String actionKey,
    PolicyDecision decision,
    PolicyActionRequest action,
    Optional<ApprovalScope> approval) {

  public Permit {
    Objects.requireNonNull(actionKey, "actionKey");
    Objects.requireNonNull(decision, "decision");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(approval, "approval");
  }

  /** When the approval ends ({@code expires_at}); empty for an action the Policy allows itself. */
  public Optional<OffsetDateTime> expiresAt() {
    return approval.map(ApprovalScope::getExpiresAt);
  }
}
