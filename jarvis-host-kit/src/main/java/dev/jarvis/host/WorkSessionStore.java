package dev.jarvis.host;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * WorkSessions and their event chains, read side; writes go through {@link HostStores#commit}. Each
 * lookup is a query an implementation answers from an index, not by reading a whole chain.
 */
public interface WorkSessionStore {

  /** The WorkSession, if it exists. */
  Optional<StoredSession> find(String workSessionId);

  /** Its events in chain order; empty if it does not exist. */
  List<JsonNode> events(String workSessionId);

  /**
   * At most {@code limit} of its events whose {@code sequence} is greater than {@code
   * afterSequence}, in chain order; empty if it does not exist or has none there. The {@code
   * event-log} capability pages through a chain with it, so an implementation reads only that page
   * (a database: a range on the WorkSession and sequence key), at the same cost at any depth.
   *
   * @param afterSequence 0 for the page from genesis
   * @param limit at least 1
   */
  List<JsonNode> events(String workSessionId, long afterSequence, int limit);

  /** The first event of the WorkSession with this {@code id}, if any. */
  Optional<JsonNode> event(String workSessionId, String eventId);

  /**
   * How many events of the WorkSession name {@code ref} in {@code payload.evidence_refs} (an agent
   * action citing {@code policy_decision:<id>} is one use of that decision).
   */
  long countCiting(String workSessionId, String ref);

  /**
   * How many WorkSessions whose {@code created_by_actor_id} is {@code actorId} have a {@code
   * status} among {@code statuses} (an Actor's open WorkSessions, for {@link PrincipalLimits}). An
   * implementation answers from an index on the creator, not by reading every WorkSession.
   */
  long countCreatedBy(String actorId, Set<String> statuses);
}
