package dev.jarvis.console;

import dev.jarvis.core.policy.PolicyEvaluation;
import java.util.Optional;

/**
 * The rule of the WorkSession's Policy that required a Request's review, as the host evaluates it:
 * the host holds the Policy and the protocol has no read of it, so a binding that runs inside the
 * host gives the console this (the reference host and the starter pass {@code
 * dev.jarvis.host.RequestPolicyEvaluation}). The console asks only for Requests the host has just
 * listed to the signed-in human, so it never reveals a rule of a Request that human cannot see.
 */
@FunctionalInterface
public interface ReviewRules {

  /** No evaluation: the console shows the Request's own {@code policy_refs} only. */
  ReviewRules NONE = (workSessionId, requestId) -> Optional.empty();

  /** The evaluation of the Request's action under its WorkSession's Policy, if the host has one. */
  Optional<PolicyEvaluation> of(String workSessionId, String requestId);
}
