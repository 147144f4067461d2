package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.exchange.ExpectedCursor;
import dev.jarvis.core.exchange.ProtocolExchange;
import dev.jarvis.core.hash.RequestFingerprint;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.IdempotencyStore;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.ProtocolRefusal;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.model.ProtocolErrorId;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * Runs a mutation at most once per idempotency scope (Actor, operation, protocol version, key). The
 * mutation commits its idempotency record in the same unit as its effect ({@link KeyedCommit}), so
 * of two requests with one key, in this instance or another sharing the store, one has the effect
 * and the other answers with its stored response.
 *
 * <p>The key is looked up only when the mutation does not commit, not before it runs: a first
 * request, by far the usual one, then costs no lookup (a database round trip). A replay is answered
 * all the same. Its commit finds the key taken ({@link KeyedCommit.KeyTaken}, the stored record
 * coming with it), or its rules refuse it, most often as {@code stale_work_session_revision} since
 * its own first run moved the WorkSession on, and every refusal looks the key up before it is
 * answered: a stored first response beats the refusal (as does a winner on another instance that
 * committed in between). A key first used for another request is {@code
 * duplicate_idempotency_key_mismatch} on either path. Only successes are kept: a refusal changed
 * nothing, so a retry of it is evaluated afresh. Requests of one scope are serialised within this
 * instance only to save wasted work; correctness rests on the store.
 */
final class IdempotentExecution {

  private final HostConfig config;
  private final KeyedLocks<IdempotencyStore.Scope> locks = new KeyedLocks<>();

  IdempotentExecution(HostConfig config) {
    this.config = config;
  }

  Applied run(ProtocolCall call, Function<KeyedCommit, StoredResponse> mutation) {
    ProtocolExchange exchange = call.exchange();
    IdempotencyStore.Scope scope =
        new IdempotencyStore.Scope(
            exchange.actorId(),
            exchange.operationId(),
            JarvisSpec.PROTOCOL_VERSION,
            exchange.idempotencyKey().orElseThrow().value());
    String fingerprint = fingerprint(exchange);
    return locks.with(
        scope,
        () -> {
          Instant now = config.clock().instant();
          Instant notBefore = now.minus(config.idempotencyRetention());
          IdempotencyStore store = config.stores().idempotency();
          KeyedCommit commit =
              new KeyedCommit(
                  config.stores(),
                  call,
                  config.commitHook(),
                  config.requestNotifications(),
                  scope,
                  fingerprint,
                  now,
                  notBefore);
          try {
            StoredResponse response = mutation.apply(commit);
            return new Applied(response, false, commit.appended());
          } catch (KeyedCommit.KeyTaken taken) {
            return replay(taken.first(), fingerprint);
          } catch (ProtocolRefusal refusal) {
            Optional<IdempotencyStore.Entry> winner = store.find(scope, notBefore);
            if (winner.isPresent()) {
              return replay(winner.get(), fingerprint);
            }
            throw refusal;
          }
        });
  }

  /** The first response again, or a refusal if the key was first used for another request. */
  private static Applied replay(IdempotencyStore.Entry first, String fingerprint) {
    if (!first.fingerprint().equals(fingerprint)) {
      throw refuse(
          ProtocolErrorId.DUPLICATE_IDEMPOTENCY_KEY_MISMATCH,
          "header",
          JarvisHeaders.IDEMPOTENCY_KEY,
          "This key was used for a different request by the same Actor and operation.");
    }
    return new Applied(first.response(), true, Optional.empty());
  }

  private static String fingerprint(ProtocolExchange exchange) {
    Optional<ExpectedCursor> cursor = exchange.cursor();
    return new RequestFingerprint(
            exchange.operationId(),
            exchange.actorId(),
            exchange.pathIds(),
            cursor.isPresent()
                ? OptionalLong.of(cursor.get().revision().value())
                : OptionalLong.empty(),
            cursor.map(c -> c.previousEventHash().value()),
            exchange.tree())
        .hash();
  }
}
