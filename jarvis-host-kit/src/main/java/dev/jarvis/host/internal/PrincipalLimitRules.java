package dev.jarvis.host.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.PrincipalLimits;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.ProtocolRefusal;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.Request;
import dev.jarvis.model.WorkSessionStatus;
import java.time.Instant;
import java.util.Arrays;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The host's {@link PrincipalLimits}, which hold across WorkSessions where a Policy's {@code
 * request_limits} hold within one:
 *
 * <ul>
 *   <li>createWorkSession: the creator's open WorkSessions (any status but completed, failed,
 *       cancelled and closed), counted by the store ({@code WorkSessionStore.countCreatedBy}), must
 *       stay below {@code openWorkSessionsPerActor}, else {@code unauthorized_actor}: the Actor's
 *       authority to open WorkSessions is used up, and that id is one createWorkSession may raise.
 *   <li>createRequest: the open Requests naming the same human Worker as target, across all
 *       WorkSessions ({@code RecordStore.requestsTargeting}), must stay below {@code
 *       pendingRequestsPerTargetHuman}, else {@code request_livelock}, the id the Policy's {@code
 *       max_pending_requests} already answers with. A Request whose expiry is due counts no longer,
 *       though the host writes that expiry only when its WorkSession is next touched; the Request a
 *       new one supersedes ({@code duplicate_of_request_id}) does not count either.
 * </ul>
 *
 * <p>Each refusal names its limit in the reason and says what to do in the remediation. The count
 * and the commit it guards run under a lock of the creator, or of the target, so that within one
 * host instance concurrent calls cannot both pass at the limit. Host instances sharing a store each
 * hold their own locks: in a race at the limit each may pass once, so the limit can be exceeded by
 * at most one per further instance ({@code docs/host.md}, "Per-principal limits").
 */
final class PrincipalLimitRules {

  /** The WorkSession statuses that hold an Actor's limit: every one but the ended ones. */
  static final Set<String> OPEN_WORK_SESSION_STATUSES =
      Arrays.stream(WorkSessionStatus.values())
          .map(WorkSessionStatus::getValue)
          .filter(s -> !WorkSessionLifecycle.TERMINAL.contains(s))
          .filter(s -> !WorkSessionLifecycle.CLOSED.equals(s))
          .collect(Collectors.toUnmodifiableSet());

  private final HostConfig config;
  private final KeyedLocks<String> creators = new KeyedLocks<>();
  private final KeyedLocks<String> targets = new KeyedLocks<>();

  PrincipalLimitRules(HostConfig config) {
    this.config = config;
  }

  /** Runs a createWorkSession holding its creator's lock. */
  <T> T forCreator(ProtocolCall call, Supplier<T> work) {
    return creators.with(call.actorId(), work);
  }

  /** Runs a scoped mutation holding its Request target's lock when it is a createRequest. */
  <T> T forTarget(ProtocolCall call, Supplier<T> work) {
    if (!OperationIds.CREATE_REQUEST.equals(call.operationId())) {
      return work.get();
    }
    return targets.with(
        call.body().path(Request.JSON_PROPERTY_TARGET_HUMAN_WORKER_ID).asText(), work);
  }

  /** Refuses a createWorkSession past its creator's {@code openWorkSessionsPerActor}. */
  void checkCreator(String actorId) {
    int limit = config.limits().openWorkSessionsPerActor();
    long open = config.stores().sessions().countCreatedBy(actorId, OPEN_WORK_SESSION_STATUSES);
    if (open >= limit) {
      throw new ProtocolRefusal(
          new ProtocolViolation(
              ProtocolErrorId.UNAUTHORIZED_ACTOR,
              ProtocolViolation.HEADER_OBJECT_TYPE,
              JarvisHeaders.ACTOR_ID,
              "The Actor has "
                  + open
                  + " open WorkSessions; the host's limit openWorkSessionsPerActor is "
                  + limit
                  + ".",
              "Complete, fail or cancel one of this Actor's open WorkSessions before creating"
                  + " another, or ask the host's operator to raise openWorkSessionsPerActor."));
    }
  }

  /**
   * Refuses a createRequest past its target's {@code pendingRequestsPerTargetHuman}. Runs after the
   * Request's own rules, so the target is the WorkSession's human Worker.
   */
  void checkTarget(ProtocolCall call) {
    JsonNode request = call.body();
    String target = request.path(Request.JSON_PROPERTY_TARGET_HUMAN_WORKER_ID).asText();
    String superseded = request.path(Request.JSON_PROPERTY_DUPLICATE_OF_REQUEST_ID).asText("");
    Instant now = config.clock().instant();
    int limit = config.limits().pendingRequestsPerTargetHuman();
    long open =
        config.stores().records().requestsTargeting(target, RequestLifecycle.OPEN_STATUSES).stream()
            .filter(r -> !RequestLifecycle.isDue(r, now))
            .map(StoredRecord::id)
            .filter(id -> !id.equals(superseded))
            .count();
    if (open >= limit) {
      throw new ProtocolRefusal(
          new ProtocolViolation(
              ProtocolErrorId.REQUEST_LIVELOCK,
              RequestRule.OBJECT,
              "/target_human_worker_id",
              open
                  + " open Requests across WorkSessions wait on human Worker "
                  + target
                  + "; the host's limit pendingRequestsPerTargetHuman is "
                  + limit
                  + ".",
              "Wait until the human has resolved some of the Requests waiting on them (or they"
                  + " expire), or ask the host's operator to raise"
                  + " pendingRequestsPerTargetHuman."));
    }
  }
}
