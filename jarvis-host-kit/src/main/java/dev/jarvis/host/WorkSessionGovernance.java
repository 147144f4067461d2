package dev.jarvis.host;

import dev.jarvis.core.policy.PolicyAssignments;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Who governs a WorkSession, as the host's operator configures it: which Policies govern which
 * human Workers beyond the one each is owned by ({@link PolicyAssignments}), and which human
 * Workers each agent Worker may open WorkSessions for.
 *
 * <p>Authority over a human's work is granted by configuration and by that human, never claimed by
 * the agent it governs: a human's own Actor opens WorkSessions for itself under a Policy that
 * governs it; an agent's Actor only for a human Worker its agent Worker {@link #serves}, and under
 * that human's Policy too (docs/host.md, "Who governs a WorkSession").
 *
 * @param policies which Policies govern which human Workers besides their owners
 * @param humansByAgentWorker the human Workers each agent Worker serves, by the agent's {@code
 *     worker_id}
 */
public record WorkSessionGovernance(
    PolicyAssignments policies, Map<String, Set<String>> humansByAgentWorker) {

  /** No assignments and no agent serving anyone: only a human opens its own WorkSessions. */
  public static final WorkSessionGovernance NONE =
      new WorkSessionGovernance(PolicyAssignments.none(), Map.of());

  public WorkSessionGovernance {
    Objects.requireNonNull(policies, "policies");
    Map<String, Set<String>> copy = new LinkedHashMap<>();
    humansByAgentWorker.forEach((agent, humans) -> copy.put(agent, Set.copyOf(humans)));
    humansByAgentWorker = Map.copyOf(copy);
  }

  /** The Policy {@code policyId} governs {@code humanWorkerId} too. */
  public WorkSessionGovernance assignPolicy(String policyId, String humanWorkerId) {
    return new WorkSessionGovernance(policies.assign(policyId, humanWorkerId), humansByAgentWorker);
  }

  /** The Policy {@code policyId} governs every human Worker (a host with one Policy for all). */
  public WorkSessionGovernance assignPolicyToEveryHuman(String policyId) {
    return new WorkSessionGovernance(policies.assignToEveryHuman(policyId), humansByAgentWorker);
  }

  /**
   * The agent Worker {@code agentWorkerId} serves the human Worker {@code humanWorkerId}: its
   * Actors may open WorkSessions for that human, under a Policy that governs the human.
   */
  public WorkSessionGovernance agentServes(String agentWorkerId, String humanWorkerId) {
    Objects.requireNonNull(agentWorkerId, "agentWorkerId");
    Objects.requireNonNull(humanWorkerId, "humanWorkerId");
    Map<String, Set<String>> copy = new LinkedHashMap<>(humansByAgentWorker);
    Set<String> humans = new LinkedHashSet<>(copy.getOrDefault(agentWorkerId, Set.of()));
    humans.add(humanWorkerId);
    copy.put(agentWorkerId, humans);
    return new WorkSessionGovernance(policies, copy);
  }

  /**
   * Whether the agent Worker {@code agentWorkerId} serves the human Worker {@code humanWorkerId}.
   */
  public boolean serves(String agentWorkerId, String humanWorkerId) {
    return humansByAgentWorker.getOrDefault(agentWorkerId, Set.of()).contains(humanWorkerId);
  }

  /**
   * Reads one {@code LEFT=RIGHT} pair of a command line or a property ({@code serve --assign-policy
   * POLICY=HUMAN_WORKER}, {@code --agent-serves AGENT_WORKER=HUMAN_WORKER}): both sides non-blank,
   * split at the first {@code =}, ids kept exactly as written but for surrounding blanks.
   *
   * @throws IllegalArgumentException naming the expected form when the text is not such a pair
   */
  private static Map.Entry<String, String> pair(String text, String form) {
    int at = text.indexOf('=');
    String left = at < 0 ? "" : text.substring(0, at).strip();
    String right = at < 0 ? "" : text.substring(at + 1).strip();
    if (left.isEmpty() || right.isEmpty()) {
      throw new IllegalArgumentException("expected " + form + ", got '" + text + "'");
    }
    return Map.entry(left, right);
  }

  /** Every-human wildcard on the right of {@code --assign-policy POLICY=*}. */
  public static final String EVERY_HUMAN = "*";

  /**
   * This governance with {@code POLICY=HUMAN_WORKER} (or {@code POLICY=*}: every human) added.
   *
   * @throws IllegalArgumentException when the text is not such a pair
   */
  public WorkSessionGovernance withPolicyAssignment(String text) {
    Map.Entry<String, String> p = pair(text, "POLICY_ID=HUMAN_WORKER_ID or POLICY_ID=*");
    return EVERY_HUMAN.equals(p.getValue())
        ? assignPolicyToEveryHuman(p.getKey())
        : assignPolicy(p.getKey(), p.getValue());
  }

  /**
   * This governance with {@code AGENT_WORKER=HUMAN_WORKER} added.
   *
   * @throws IllegalArgumentException when the text is not such a pair
   */
  public WorkSessionGovernance withAgentServing(String text) {
    Map.Entry<String, String> p = pair(text, "AGENT_WORKER_ID=HUMAN_WORKER_ID");
    if (EVERY_HUMAN.equals(p.getValue())) {
      throw new IllegalArgumentException(
          "an agent Worker serves named human Workers, not '*': got '" + text + "'");
    }
    return agentServes(p.getKey(), p.getValue());
  }
}
