package dev.jarvis.host;

import dev.jarvis.model.AgentWorker;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * How the host tells an agent's actions from its other events and what it knows of AgentWorkers.
 *
 * <p>Every event an agent Actor appends is an agent action, held to a PolicyDecision, unless its
 * type is one of {@link #nonActionEventTypes()}: events that record, not act (a note, a progress
 * mark). Matching is exact, code point by code point: {@code Note.Added} is not {@code note.added}.
 *
 * @param nonActionEventTypes the event types an agent appends without a PolicyDecision; none by
 *     default, so that every agent event is judged
 * @param reservedEventTypes event types only this host writes, besides the protocol's own (every
 *     {@code *.recorded}/{@code *.created} type the host appends for an accepted mutation); a
 *     client's event of such a type, or of a look-alike of one, is refused
 * @param agentWorkers the AgentWorkers the host knows, by {@code worker_id}; the spec has no
 *     operation to register one, so a host is configured with them. Where the Actor's Worker has
 *     one, its {@code autonomy_level} applies with the Policy's, the stricter winning
 */
public record AgentActions(
    Set<String> nonActionEventTypes,
    Set<String> reservedEventTypes,
    Map<String, AgentWorker> agentWorkers) {

  /** Every agent event is an action; no reserved types of the host's own; no AgentWorkers. */
  public static final AgentActions DEFAULT = new AgentActions(Set.of(), Set.of(), Map.of());

  public AgentActions {
    nonActionEventTypes = Set.copyOf(nonActionEventTypes);
    reservedEventTypes = Set.copyOf(reservedEventTypes);
    agentWorkers = Map.copyOf(agentWorkers);
  }

  /** These types are recorded without a PolicyDecision. */
  public AgentActions withNonActionEventTypes(Collection<String> types) {
    return new AgentActions(Set.copyOf(types), reservedEventTypes, agentWorkers);
  }

  /** These types, and their look-alikes, are the host's alone. */
  public AgentActions withReservedEventTypes(Collection<String> types) {
    return new AgentActions(nonActionEventTypes, Set.copyOf(types), agentWorkers);
  }

  /** The host knows {@code worker} (by its {@code worker_id}), replacing one of the same id. */
  public AgentActions withAgentWorker(AgentWorker worker) {
    Objects.requireNonNull(worker.getWorkerId(), "worker_id");
    Map<String, AgentWorker> map = new LinkedHashMap<>(agentWorkers);
    map.put(worker.getWorkerId(), worker);
    return new AgentActions(nonActionEventTypes, reservedEventTypes, map);
  }

  /** The AgentWorker of {@code workerId}, if the host knows it. */
  public Optional<AgentWorker> agentWorker(String workerId) {
    return Optional.ofNullable(agentWorkers.get(workerId));
  }
}
