package dev.jarvis.host;

import dev.jarvis.core.notification.RequestNotification;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One unit of work: what an accepted mutation writes, committed by {@link HostStores#commit}
 * together or not at all.
 *
 * @param claim the idempotency record to claim, if the mutation carries a key
 * @param chain the WorkSession write (genesis, append or seal), if any
 * @param records records written with it, in order
 * @param step work the store runs inside the unit once every condition held (a {@link CommitHook},
 *     for an outbox); its failure writes nothing
 * @param notification a notification the store writes to its outbox inside the unit ({@code
 *     dev.jarvis.host.notify.NotificationOutbox}), so it exists exactly when the mutation
 *     committed; a store without an outbox is never given one (the host checks at start)
 */
public record Mutation(
    Optional<IdempotencyClaim> claim,
    Optional<ChainWrite> chain,
    List<RecordWrite> records,
    Optional<UnitOfWork.Step> step,
    Optional<RequestNotification> notification) {

  public Mutation {
    Objects.requireNonNull(claim, "claim");
    Objects.requireNonNull(chain, "chain");
    records = List.copyOf(records);
    Objects.requireNonNull(step, "step");
    Objects.requireNonNull(notification, "notification");
  }

  /** A unit without a notification. */
  public Mutation(
      Optional<IdempotencyClaim> claim,
      Optional<ChainWrite> chain,
      List<RecordWrite> records,
      Optional<UnitOfWork.Step> step) {
    this(claim, chain, records, step, Optional.empty());
  }

  /** A unit with no step inside it. */
  public Mutation(
      Optional<IdempotencyClaim> claim, Optional<ChainWrite> chain, List<RecordWrite> records) {
    this(claim, chain, records, Optional.empty(), Optional.empty());
  }

  /** A chain write with its records, no idempotency record. */
  public static Mutation of(ChainWrite chain, List<RecordWrite> records) {
    return new Mutation(Optional.empty(), Optional.of(chain), records);
  }

  /** Records only, no idempotency record. */
  public static Mutation records(List<RecordWrite> records) {
    return new Mutation(Optional.empty(), Optional.empty(), records);
  }

  /** The same unit, also claiming an idempotency key. */
  public Mutation claiming(IdempotencyClaim claim) {
    return new Mutation(Optional.of(claim), chain, records, step, notification);
  }

  /** The same unit, also running {@code step} inside it. */
  public Mutation within(UnitOfWork.Step step) {
    return new Mutation(claim, chain, records, Optional.of(step), notification);
  }

  /** The same unit, also writing {@code notification} to the store's outbox. */
  public Mutation notifying(RequestNotification notification) {
    return new Mutation(claim, chain, records, step, Optional.of(notification));
  }

  /** The event this unit appends: the genesis event or the appended one; none for a seal. */
  public Optional<com.fasterxml.jackson.databind.JsonNode> appendedEvent() {
    if (chain.isEmpty()) {
      return Optional.empty();
    }
    ChainWrite write = chain.get();
    if (write instanceof ChainWrite.Genesis genesis) {
      return Optional.of(genesis.firstEvent());
    }
    return write instanceof ChainWrite.Append append
        ? Optional.of(append.event())
        : Optional.empty();
  }

  /**
   * Runs the step, if any, inside {@code unit}: for a store, once every condition held and before
   * the unit ends. A checked exception comes out as {@link UnitOfWorkException}.
   */
  public void runStep(UnitOfWork unit) {
    if (step.isEmpty()) {
      return;
    }
    try {
      step.get().run(unit);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new UnitOfWorkException(e);
    }
  }
}
