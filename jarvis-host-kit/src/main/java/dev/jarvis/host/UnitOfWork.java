package dev.jarvis.host;

import java.util.Optional;

/**
 * The store's unit of work while it commits a {@link Mutation}, as a {@link CommitHook} sees it:
 * whatever the hook writes through {@link #resource} is committed with the mutation or not at all.
 */
public interface UnitOfWork {

  /**
   * The store's handle on the unit, if it has one of this type: {@code java.sql.Connection} for
   * {@code JdbcHostStores} (write an outbox row on it; never commit, roll back or close it). The
   * in-memory store has none: its unit is a monitor, and a hook there can only fail the commit.
   */
  <T> Optional<T> resource(Class<T> type);

  /** A unit that offers no resource (the in-memory store's). */
  static UnitOfWork withoutResources() {
    return new UnitOfWork() {
      @Override
      public <T> Optional<T> resource(Class<T> type) {
        return Optional.empty();
      }
    };
  }

  /** A unit that offers one resource. */
  static UnitOfWork of(Object resource) {
    return new UnitOfWork() {
      @Override
      public <T> Optional<T> resource(Class<T> type) {
        return type.isInstance(resource) ? Optional.of(type.cast(resource)) : Optional.empty();
      }
    };
  }

  /**
   * Work a store runs inside the unit, after every condition of the mutation held and before the
   * unit ends. An exception it throws ends the unit with nothing written and leaves {@link
   * HostStores#commit} (a checked one wrapped in {@link UnitOfWorkException}).
   */
  @FunctionalInterface
  interface Step {
    void run(UnitOfWork unit) throws Exception;
  }
}
