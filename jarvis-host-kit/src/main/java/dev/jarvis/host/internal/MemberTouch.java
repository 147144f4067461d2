package dev.jarvis.host.internal;

import dev.jarvis.host.HostConfig;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.SessionWithRecords;
import dev.jarvis.host.StoredSession;
import java.util.Set;

/**
 * A member's touch of a WorkSession, read or mutation, the WorkSession's lock held: the WorkSession
 * and its open Requests found in one store read, the caller refused unless a member, and the due
 * Request expiries written ({@link DueRequestExpiry}) before anything is answered from it.
 */
final class MemberTouch {

  private final HostConfig config;
  private final Membership membership;
  private final DueRequestExpiry expiry;

  MemberTouch(HostConfig config, Membership membership, DueRequestExpiry expiry) {
    this.config = config;
    this.membership = membership;
    this.expiry = expiry;
  }

  /** The WorkSession a member may see, its due Request expiries written first. */
  StoredSession view(ProtocolCall call, String id) {
    CallRecords reads = new CallRecords(config.stores().records(), call);
    SessionWithRecords found = read(call, id, reads, Set.of());
    return expiry.expireDue(found.session(), found.records(), reads);
  }

  /**
   * The WorkSession and its open Requests in one read (the expiry check needs them each time), with
   * which of {@code eventIds} its chain holds; refused unless the caller is a member. No expiry is
   * written yet: the caller asks {@link #expireDue} with what it read.
   */
  SessionWithRecords read(ProtocolCall call, String id, CallRecords reads, Set<String> eventIds) {
    SessionWithRecords found =
        config
            .stores()
            .findWithRecords(id, RecordKind.REQUEST, RequestLifecycle.OPEN_STATUSES, eventIds)
            .orElseThrow(Membership::notAMember);
    membership.checkStored(found.session().snapshot(), call.actorId(), reads);
    return found;
  }

  /** The WorkSession {@link #read} found, after its due Request expiries. */
  StoredSession expireDue(SessionWithRecords found, CallRecords reads) {
    return expiry.expireDue(found.session(), found.records(), reads);
  }
}
