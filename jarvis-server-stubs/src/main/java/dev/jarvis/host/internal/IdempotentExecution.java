package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.hash.RequestFingerprint;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.headers.MutationHeaders;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.IdempotencyStore;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.model.ProtocolErrorId;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * Runs a mutation at most once per idempotency scope (Actor, operation, protocol version, key).
 * Requests of one scope are serialised, so of two concurrent requests with one key the second waits
 * and then replays the first's answer: one effect. The check comes before anything the mutation
 * looks at, so a replay after the WorkSession moved on still answers the first response rather than
 * {@code stale_work_session_revision}. Only successes are kept: a refusal changed nothing, so a
 * retry of it is evaluated afresh.
 */
final class IdempotentExecution {

  private final HostConfig config;
  private final KeyedLocks<IdempotencyStore.Scope> locks = new KeyedLocks<>();

  IdempotentExecution(HostConfig config) {
    this.config = config;
  }

  StoredResponse run(ProtocolCall call, Supplier<StoredResponse> mutation) {
    MutationHeaders headers = call.mutation();
    IdempotencyStore.Scope scope =
        new IdempotencyStore.Scope(
            call.actorId(),
            call.operationId(),
            JarvisSpec.PROTOCOL_VERSION,
            headers.idempotencyKey().value());
    String fingerprint = fingerprint(call, headers);
    return locks.with(
        scope,
        () -> {
          Instant now = config.clock().instant();
          IdempotencyStore store = config.stores().idempotency();
          Optional<IdempotencyStore.Entry> first =
              store.find(scope, now.minus(config.idempotencyRetention()));
          if (first.isPresent()) {
            if (!first.get().fingerprint().equals(fingerprint)) {
              throw refuse(
                  ProtocolErrorId.DUPLICATE_IDEMPOTENCY_KEY_MISMATCH,
                  "header",
                  JarvisHeaders.IDEMPOTENCY_KEY,
                  "This key was used for a different request by the same Actor and operation.");
            }
            return first.get().response();
          }
          StoredResponse response = mutation.get();
          store.save(scope, new IdempotencyStore.Entry(fingerprint, response, now));
          return response;
        });
  }

  private static String fingerprint(ProtocolCall call, MutationHeaders headers) {
    return new RequestFingerprint(
            call.operationId(),
            call.actorId(),
            call.pathParameters(),
            headers.expectedRevision().isPresent()
                ? OptionalLong.of(headers.expectedRevision().get().value())
                : OptionalLong.empty(),
            headers.previousEventHash().map(h -> h.value()),
            call.body())
        .hash();
  }
}
