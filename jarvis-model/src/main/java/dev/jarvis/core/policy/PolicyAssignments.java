package dev.jarvis.core.policy;

import dev.jarvis.model.Policy;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Which Policies govern which human Workers: the one rule, shared by host, stub host and client,
 * that says whether a WorkSession may be held to a Policy.
 *
 * <p>A Policy governs the human Worker it is owned by ({@code owner_worker_id}) and, beyond that,
 * only the human Workers a host's configuration assigns it to: one by one ({@link #assign}) or
 * every human Worker of the host ({@link #assignToEveryHuman}, for a host with one Policy for all).
 * The spec gives a Policy its owner and a WorkSession its {@code human_worker_id} and {@code
 * policy_id} but does not say who may bind them; an agent must not pick the Policy it is judged by,
 * so the binding comes from the Policy's owner or from the operator, never from the body of a
 * request (docs/protocol-decisions.md, "Who governs a WorkSession").
 *
 * <p>Immutable; each {@code assign…} answers a new value. Ids are compared exactly, code point by
 * code point, as every protocol id is.
 */
public final class PolicyAssignments {

  private static final PolicyAssignments NONE = new PolicyAssignments(Map.of(), Set.of());

  private final Map<String, Set<String>> humansByPolicy;
  private final Set<String> everyHuman;

  private PolicyAssignments(Map<String, Set<String>> humansByPolicy, Set<String> everyHuman) {
    this.humansByPolicy = humansByPolicy;
    this.everyHuman = everyHuman;
  }

  /** No assignments: each Policy governs only the human Worker that owns it. */
  public static PolicyAssignments none() {
    return NONE;
  }

  /** The Policy {@code policyId} governs {@code humanWorkerId} too. */
  public PolicyAssignments assign(String policyId, String humanWorkerId) {
    Objects.requireNonNull(policyId, "policyId");
    Objects.requireNonNull(humanWorkerId, "humanWorkerId");
    Map<String, Set<String>> copy = new LinkedHashMap<>(humansByPolicy);
    Set<String> humans = new LinkedHashSet<>(copy.getOrDefault(policyId, Set.of()));
    humans.add(humanWorkerId);
    copy.put(policyId, Set.copyOf(humans));
    return new PolicyAssignments(Map.copyOf(copy), everyHuman);
  }

  /** The Policy {@code policyId} governs every human Worker of the host. */
  public PolicyAssignments assignToEveryHuman(String policyId) {
    Objects.requireNonNull(policyId, "policyId");
    Set<String> copy = new LinkedHashSet<>(everyHuman);
    copy.add(policyId);
    return new PolicyAssignments(humansByPolicy, Set.copyOf(copy));
  }

  /** The human Workers {@code policyId} is assigned to one by one (not its owner). */
  public Set<String> humansAssigned(String policyId) {
    return humansByPolicy.getOrDefault(policyId, Set.of());
  }

  /** The Policies assigned to every human Worker. */
  public Set<String> forEveryHuman() {
    return everyHuman;
  }

  /**
   * Whether the Policy of id {@code policyId}, owned by {@code ownerWorkerId}, governs the human
   * Worker {@code humanWorkerId}: it owns the Policy, or the Policy is assigned to it.
   */
  public boolean governs(String policyId, String ownerWorkerId, String humanWorkerId) {
    return humanWorkerId.equals(ownerWorkerId)
        || everyHuman.contains(policyId)
        || humansAssigned(policyId).contains(humanWorkerId);
  }

  /** {@link #governs(String, String, String)} of {@code policy}. */
  public boolean governs(Policy policy, String humanWorkerId) {
    return governs(policy.getId(), policy.getOwnerWorkerId(), humanWorkerId);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PolicyAssignments other
        && humansByPolicy.equals(other.humansByPolicy)
        && everyHuman.equals(other.everyHuman);
  }

  @Override
  public int hashCode() {
    return Objects.hash(humansByPolicy, everyHuman);
  }

  @Override
  public String toString() {
    return "PolicyAssignments" + humansByPolicy + " every human: " + everyHuman;
  }
}
