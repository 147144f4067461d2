package dev.jarvis.host.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.notification.RequestNotification;
import dev.jarvis.host.AcceptedMutation;
import dev.jarvis.host.CommitHook;
import dev.jarvis.host.CommitResult;
import dev.jarvis.host.HostStores;
import dev.jarvis.host.IdempotencyClaim;
import dev.jarvis.host.IdempotencyStore;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.ProtocolRefusal;
import dev.jarvis.host.RecordWrite;
import dev.jarvis.host.StoredResponse;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Commits an accepted mutation together with the idempotency record of its key: the one write of a
 * keyed request. Handed to the mutation by {@link IdempotentExecution}.
 */
final class KeyedCommit {

  /** The key is held by a record committed first, here or by another host instance. */
  static final class KeyTaken extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient IdempotencyStore.Entry first;

    KeyTaken(IdempotencyStore.Entry first) {
      super("idempotency key taken", null, false, false);
      this.first = first;
    }

    IdempotencyStore.Entry first() {
      return first;
    }
  }

  private final HostStores stores;
  private final ProtocolCall call;
  private final Optional<CommitHook> hook;
  private final boolean notify;
  private final IdempotencyStore.Scope scope;
  private final String fingerprint;
  private final Instant now;
  private final Instant notBefore;
  private Optional<JsonNode> appended = Optional.empty();

  KeyedCommit(
      HostStores stores,
      ProtocolCall call,
      Optional<CommitHook> hook,
      boolean notify,
      IdempotencyStore.Scope scope,
      String fingerprint,
      Instant now,
      Instant notBefore) {
    this.stores = stores;
    this.call = call;
    this.hook = hook;
    this.notify = notify;
    this.scope = scope;
    this.fingerprint = fingerprint;
    this.now = now;
    this.notBefore = notBefore;
  }

  /**
   * Commits {@code mutation} with {@code response} as the key's record and answers {@code
   * response}.
   *
   * @param conflict the refusal when the mutation's condition no longer holds
   * @throws KeyTaken when a live record holds the key
   */
  StoredResponse commit(
      Mutation mutation, StoredResponse response, Supplier<ProtocolRefusal> conflict) {
    IdempotencyClaim claim =
        new IdempotencyClaim(
            scope, new IdempotencyStore.Entry(fingerprint, response, now), notBefore);
    Mutation unit = mutation.claiming(claim);
    if (notify && mutation.appendedEvent().isPresent()) {
      Optional<RequestNotification> notice =
          RequestNotices.of(
              mutation.appendedEvent().get(),
              mutation.records().stream().map(RecordWrite::record).toList());
      if (notice.isPresent()) {
        unit = unit.notifying(notice.get());
      }
    }
    if (hook.isPresent()) {
      AcceptedMutation accepted =
          new AcceptedMutation(
              call,
              mutation.appendedEvent(),
              mutation.records().stream().map(RecordWrite::record).toList(),
              response);
      CommitHook h = hook.get();
      unit = unit.within(inside -> h.beforeCommit(accepted, inside));
    }
    CommitResult result = stores.commit(unit);
    return switch (result.outcome()) {
      case COMMITTED -> {
        appended = mutation.appendedEvent();
        yield response;
      }
      case KEY_TAKEN -> throw new KeyTaken(result.firstResponse().orElseThrow());
      case CONFLICT -> throw conflict.get();
    };
  }

  /** The event the committed mutation appended; empty before a commit or when it appended none. */
  Optional<JsonNode> appended() {
    return appended;
  }
}
