package dev.jarvis.host;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.model.Actor;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Protocol records, read side; writes go through {@link HostStores#commit}. A record is keyed by
 * kind, WorkSession and id: records of two WorkSessions never see or replace each other, and
 * records outside WorkSessions (Workers, Actors, Policies, OutcomeReports) have their own space.
 */
public interface RecordStore {

  /** The record outside any WorkSession (Worker, Actor, Policy, OutcomeReport), if it exists. */
  Optional<StoredRecord> find(RecordKind kind, String id);

  /** The record of that WorkSession, if it exists. */
  Optional<StoredRecord> find(RecordKind kind, String workSessionId, String id);

  /**
   * The record of this kind and id in whichever WorkSession holds it, if any; records outside
   * WorkSessions are not among them. The host asks this before a WorkSession records an id, to
   * refuse an id of another WorkSession by its kind's error; {@link HostStores#commit} enforces the
   * same uniqueness for writers that race past that check. An implementation answers from an index
   * on (kind, id), not by reading every WorkSession. (Should a store hold one id in several
   * WorkSessions from before it enforced this, the first written answers.)
   */
  Optional<StoredRecord> findInAnyWorkSession(RecordKind kind, String id);

  /** The body of the record outside any WorkSession, if it exists. */
  default Optional<JsonNode> body(RecordKind kind, String id) {
    return find(kind, id).map(StoredRecord::body);
  }

  /**
   * The Actor outside any WorkSession with the Worker its {@code worker_id} names; empty if the
   * Actor is not registered. The host reads both for every request an Actor makes (its authority
   * needs them), so a store that can answer both from one query (a database: a join, one round trip
   * instead of two) overrides this. The default asks {@link #find(RecordKind, String)} twice.
   */
  default Optional<ActorWithWorker> actorWithWorker(String actorId) {
    return find(RecordKind.ACTOR, actorId)
        .map(
            actor ->
                new ActorWithWorker(
                    actor,
                    find(
                        RecordKind.WORKER,
                        actor.body().path(Actor.JSON_PROPERTY_WORKER_ID).asText())));
  }

  /**
   * The Actors outside any WorkSession whose {@code worker_id} is {@code workerId}, in the order
   * they were first written (the host asks whether a human Worker has an Actor able to review
   * before a WorkSession is opened for it). An implementation answers from an index on the Actor's
   * Worker, not by reading every record.
   */
  List<StoredRecord> actorsOf(String workerId);

  /** The records of one kind in one WorkSession, in the order they were first written. */
  List<StoredRecord> inSession(RecordKind kind, String workSessionId);

  /**
   * The records of one kind in one WorkSession whose body's {@code status} is one of {@code
   * statuses} (the open Requests), in the order they were first written.
   */
  List<StoredRecord> inSession(RecordKind kind, String workSessionId, Set<String> statuses);

  /**
   * The Requests, across all WorkSessions, that name {@code humanWorkerId} as {@code
   * target_human_worker_id} and have a {@code status} among {@code statuses} (the open Requests
   * waiting on one human, for {@link PrincipalLimits}; the host bounds how many there are), in the
   * order they were first written. An implementation answers from an index on the target, not by
   * reading every WorkSession.
   */
  List<StoredRecord> requestsTargeting(String humanWorkerId, Set<String> statuses);

  /**
   * A page of a human's inbox: the Requests, across all WorkSessions, that name {@code
   * humanWorkerId} as {@code target_human_worker_id}, have a {@code status} among {@code statuses}
   * and a {@link InboxEntry#position position} greater than {@code after}, by position, at most
   * {@code limit}. The position is the Request's place in the store's order of first writes (a
   * database's write order), so a Request written later lists later and a page after the last
   * position seen holds only Requests written since or changed into a wanted status since. An
   * implementation answers from an index on (target, status, position), not by reading every
   * WorkSession or every Request of the human: a page costs the same at 100 and at 100,000
   * Requests. The default reads {@link #requestsTargeting} and numbers its answer, for a store that
   * keeps Requests in first-write order and never deletes one; every store of the SDK overrides it.
   */
  default List<InboxEntry> inbox(
      String humanWorkerId, Set<String> statuses, long after, int limit) {
    List<StoredRecord> all = requestsTargeting(humanWorkerId, allRequestStatuses());
    List<InboxEntry> page = new java.util.ArrayList<>();
    for (int i = (int) Math.min(after, all.size()); i < all.size() && page.size() < limit; i++) {
      StoredRecord request = all.get(i);
      if (statuses.contains(
          request.body().path(dev.jarvis.model.Request.JSON_PROPERTY_STATUS).asText())) {
        page.add(new InboxEntry(i + 1L, request));
      }
    }
    return page;
  }

  /** Every value of the spec's {@code RequestStatus}. */
  private static Set<String> allRequestStatuses() {
    return java.util.Arrays.stream(dev.jarvis.model.RequestStatus.values())
        .map(dev.jarvis.model.RequestStatus::getValue)
        .collect(java.util.stream.Collectors.toUnmodifiableSet());
  }

  /**
   * The open Requests ({@code status} {@code pending} or {@code acknowledged}) whose {@code
   * expires_at} is at or before {@code notAfter}, in WorkSessions not sealed whose {@code status}
   * is among {@code sessionStatuses} (those that still take the expiry event), across all of them,
   * earliest expiry first, at most {@code limit}: what the host's expiry sweep ({@code
   * RequestExpirySweep}) writes {@code request.expired} for. Requests of WorkSessions that take no
   * event are left out, so they cannot fill every batch. An implementation answers from an index on
   * the open Requests' expiry, not by reading every WorkSession; a Request whose {@code expires_at}
   * the store cannot read may be left out (it still expires at the next touch of its WorkSession).
   */
  List<StoredRecord> requestsDue(
      java.time.Instant notAfter, Set<String> sessionStatuses, int limit);
}
