package dev.jarvis.core.headers;

import dev.jarvis.core.OperationClass;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.model.ProtocolErrorId;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The mutation headers of one request: the four every mutation sends, plus the WorkSession cursor
 * (expected revision and previous event hash) that WorkSession mutations send.
 *
 * <p>{@link #parse} checks, for the given operation class, every header the class requires and
 * returns all violations, in header order. Beyond each header's own syntax it checks:
 *
 * <ul>
 *   <li>the timestamp's freshness against the given clock ({@code stale_request_timestamp});
 *   <li>for {@code worksession_genesis_mutation}, the spec's genesis state: revision {@code 0}
 *       (else {@code stale_work_session_revision}: the WorkSession that does not exist yet is at
 *       revision 0) and {@code hash:protocol-genesis} (else {@code invalid_previous_event_hash}).
 * </ul>
 *
 * Headers the class does not take (the cursor of a {@code non_worksession_mutation}, the read-only
 * headers) are ignored.
 *
 * @param protocolVersion {@code Jarvis-Protocol-Version}
 * @param actorId {@code Jarvis-Actor-Id}
 * @param idempotencyKey {@code Jarvis-Idempotency-Key}
 * @param requestTimestamp {@code Jarvis-Request-Timestamp}
 * @param expectedRevision {@code Jarvis-Expected-WorkSession-Revision}, for WorkSession mutations
 * @param previousEventHash {@code Jarvis-Previous-Event-Hash}, for WorkSession mutations
 */
public record MutationHeaders(
    ProtocolVersion protocolVersion,
    ActorId actorId,
    IdempotencyKey idempotencyKey,
    RequestTimestamp requestTimestamp,
    Optional<ExpectedRevision> expectedRevision,
    Optional<PreviousEventHash> previousEventHash)
    implements RequestHeaders {

  public MutationHeaders {
    Objects.requireNonNull(protocolVersion, "protocolVersion");
    Objects.requireNonNull(actorId, "actorId");
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(requestTimestamp, "requestTimestamp");
    Objects.requireNonNull(expectedRevision, "expectedRevision");
    Objects.requireNonNull(previousEventHash, "previousEventHash");
    if (expectedRevision.isPresent() != previousEventHash.isPresent()) {
      throw new IllegalArgumentException(
          "the expected revision and the previous event hash travel together");
    }
  }

  /** Headers of a {@code non_worksession_mutation}: no WorkSession cursor. */
  public static MutationHeaders of(
      ActorId actorId, IdempotencyKey idempotencyKey, RequestTimestamp requestTimestamp) {
    return new MutationHeaders(
        ProtocolVersion.V0_1,
        actorId,
        idempotencyKey,
        requestTimestamp,
        Optional.empty(),
        Optional.empty());
  }

  /** Headers of a {@code worksession_scoped_mutation}. */
  public static MutationHeaders of(
      ActorId actorId,
      IdempotencyKey idempotencyKey,
      RequestTimestamp requestTimestamp,
      ExpectedRevision expectedRevision,
      PreviousEventHash previousEventHash) {
    return new MutationHeaders(
        ProtocolVersion.V0_1,
        actorId,
        idempotencyKey,
        requestTimestamp,
        Optional.of(expectedRevision),
        Optional.of(previousEventHash));
  }

  /** Headers of a {@code worksession_genesis_mutation}: revision 0 and the genesis hash. */
  public static MutationHeaders genesis(
      ActorId actorId, IdempotencyKey idempotencyKey, RequestTimestamp requestTimestamp) {
    return of(
        actorId,
        idempotencyKey,
        requestTimestamp,
        ExpectedRevision.GENESIS,
        PreviousEventHash.GENESIS);
  }

  /** Whether the WorkSession cursor is present. */
  public boolean hasCursor() {
    return expectedRevision.isPresent();
  }

  /** The same headers with another timestamp, e.g. for a retry. */
  public MutationHeaders withRequestTimestamp(RequestTimestamp timestamp) {
    return new MutationHeaders(
        protocolVersion, actorId, idempotencyKey, timestamp, expectedRevision, previousEventHash);
  }

  @Override
  public Map<String, String> toMap() {
    Map<String, String> map = new LinkedHashMap<>();
    map.put(JarvisHeaders.PROTOCOL_VERSION, protocolVersion.headerValue());
    map.put(JarvisHeaders.ACTOR_ID, actorId.headerValue());
    map.put(JarvisHeaders.IDEMPOTENCY_KEY, idempotencyKey.headerValue());
    map.put(JarvisHeaders.REQUEST_TIMESTAMP, requestTimestamp.headerValue());
    expectedRevision.ifPresent(
        r -> map.put(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION, r.headerValue()));
    previousEventHash.ifPresent(h -> map.put(JarvisHeaders.PREVIOUS_EVENT_HASH, h.headerValue()));
    return Collections.unmodifiableMap(map);
  }

  /** {@link #parse(OperationClass, Function, Clock, Duration)} with the default tolerance. */
  public static Parsed<MutationHeaders> parse(
      OperationClass operationClass, Function<String, Optional<String>> lookup, Clock clock) {
    return parse(operationClass, lookup, clock, RequestTimestamp.DEFAULT_TOLERANCE);
  }

  /**
   * Parses the mutation headers of an operation of this class, returning every violation found.
   *
   * @param operationClass a mutation class
   * @param lookup a case-insensitive header lookup, e.g. {@link HeaderLookup#of}
   * @param clock the receiver's clock
   * @param tolerance how far the timestamp may be from {@code clock}, either way
   * @throws IllegalArgumentException if the class is a read
   */
  public static Parsed<MutationHeaders> parse(
      OperationClass operationClass,
      Function<String, Optional<String>> lookup,
      Clock clock,
      Duration tolerance) {
    if (!operationClass.isMutation()) {
      throw new IllegalArgumentException(
          operationClass.wireName() + " is a read: parse its headers with ReadHeaders");
    }
    Objects.requireNonNull(clock, "clock");
    List<ProtocolViolation> violations = new ArrayList<>();
    ProtocolVersion version =
        HeaderText.collect(
            ProtocolVersion.parse(HeaderText.get(lookup, JarvisHeaders.PROTOCOL_VERSION)),
            violations);
    ActorId actor =
        HeaderText.collect(
            ActorId.parse(HeaderText.get(lookup, JarvisHeaders.ACTOR_ID)), violations);
    IdempotencyKey key =
        HeaderText.collect(
            IdempotencyKey.parse(HeaderText.get(lookup, JarvisHeaders.IDEMPOTENCY_KEY)),
            violations);
    RequestTimestamp timestamp =
        HeaderText.collect(
            RequestTimestamp.parse(HeaderText.get(lookup, JarvisHeaders.REQUEST_TIMESTAMP)),
            violations);
    if (timestamp != null) {
      timestamp.checkFreshness(clock, tolerance).ifPresent(violations::add);
    }
    Optional<ExpectedRevision> revision = Optional.empty();
    Optional<PreviousEventHash> previous = Optional.empty();
    if (operationClass.needsCursor()) {
      revision =
          Optional.ofNullable(
              HeaderText.collect(
                  ExpectedRevision.parse(
                      HeaderText.get(lookup, JarvisHeaders.EXPECTED_WORK_SESSION_REVISION)),
                  violations));
      if (operationClass == OperationClass.WORKSESSION_GENESIS_MUTATION
          && revision.isPresent()
          && !revision.get().equals(ExpectedRevision.GENESIS)) {
        // Not the catalogue's text (re-read the WorkSession): there is none to re-read yet.
        violations.add(
            new ProtocolViolation(
                ProtocolErrorId.STALE_WORK_SESSION_REVISION,
                ProtocolViolation.HEADER_OBJECT_TYPE,
                JarvisHeaders.EXPECTED_WORK_SESSION_REVISION,
                JarvisHeaders.EXPECTED_WORK_SESSION_REVISION
                    + " must be 0 when creating a WorkSession.",
                "Send "
                    + JarvisHeaders.EXPECTED_WORK_SESSION_REVISION
                    + ": 0 when creating a WorkSession."));
      }
      previous =
          Optional.ofNullable(
              HeaderText.collect(
                  PreviousEventHash.parse(
                      HeaderText.get(lookup, JarvisHeaders.PREVIOUS_EVENT_HASH)),
                  violations));
      if (operationClass == OperationClass.WORKSESSION_GENESIS_MUTATION
          && previous.isPresent()
          && !previous.get().isGenesis()) {
        violations.add(
            ProtocolViolation.header(
                ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH,
                JarvisHeaders.PREVIOUS_EVENT_HASH,
                JarvisHeaders.PREVIOUS_EVENT_HASH
                    + " must be "
                    + PreviousEventHash.GENESIS.value()
                    + " when creating a WorkSession."));
      }
    }
    if (!violations.isEmpty()) {
      return Parsed.refused(violations);
    }
    return Parsed.accepted(new MutationHeaders(version, actor, key, timestamp, revision, previous));
  }
}
