package dev.jarvis.store.jdbc;

import dev.jarvis.host.AppendListener;
import java.sql.Connection;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;

/**
 * The one PostgreSQL append feed of a store instance, shared by all its listeners: started by the
 * first listener, stopped when the last one leaves or the store closes. Every listener wants every
 * append of the schema, and a listening connection is a database backend held for good, so one
 * serves all. Without a {@link Source} (SQLite) it tells nothing.
 */
final class SharedAppendFeed {

  /** Where a PostgreSQL store's LISTEN connection comes from, and how it is discarded. */
  record Source(PostgresAppendFeed.Connector connector, Consumer<Connection> discard) {}

  private final Optional<Source> source;
  private final Optional<String> channel;
  private final PostgresAppendFeed.Timing timing;
  // The running feed while a listener is registered, and whether the store closed (guarded by
  // lock).
  private final Object lock = new Object();
  private Optional<PostgresAppendFeed> feed = Optional.empty();
  private boolean closed;

  /**
   * @param source where the LISTEN connection comes from; empty: no feed (SQLite)
   * @param tables the store's tables, whose schema names the channel
   * @param timing the feed's waits
   */
  SharedAppendFeed(Optional<Source> source, Tables tables, PostgresAppendFeed.Timing timing) {
    this.source = source;
    this.channel =
        source.isPresent()
            ? Optional.of(PostgresAppendFeed.channel(tables.schema().orElseThrow()))
            : Optional.empty();
    this.timing = timing;
  }

  /** See {@link JdbcHostStores#listenForAppends}. */
  AutoCloseable listen(AppendListener listener) {
    Objects.requireNonNull(listener, "listener");
    if (source.isEmpty()) {
      return () -> {};
    }
    PostgresAppendFeed running;
    Runnable remove;
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("the store is closed");
      }
      if (feed.isEmpty()) {
        feed =
            Optional.of(
                PostgresAppendFeed.start(
                    channel.orElseThrow(),
                    source.get().connector(),
                    source.get().discard(),
                    timing));
      }
      running = feed.get();
      // Under the lock: the last listener leaving stops the feed only when none was added.
      remove = running.add(listener);
    }
    // Outside the lock: waits for the first LISTEN, at most the pool wait.
    running.awaitListening();
    return () -> {
      PostgresAppendFeed stopping = null;
      synchronized (lock) {
        remove.run();
        if (feed.isPresent() && feed.get() == running && running.idle()) {
          feed = Optional.empty();
          stopping = running;
        }
      }
      if (stopping != null) {
        stopping.stop();
      }
    };
  }

  /** Stops the feed, if one runs; no listener can be added afterwards. */
  void close() {
    Optional<PostgresAppendFeed> stopping;
    synchronized (lock) {
      closed = true;
      stopping = feed;
      feed = Optional.empty();
    }
    stopping.ifPresent(PostgresAppendFeed::stop);
  }

  /** The backend listening for appends, while one does (for tests). */
  OptionalInt listeningBackendPid() {
    synchronized (lock) {
      return feed.map(PostgresAppendFeed::backendPid).orElse(OptionalInt.empty());
    }
  }

  /** The append feed's thread, while one runs (for tests). */
  Optional<Thread> thread() {
    synchronized (lock) {
      return feed.map(PostgresAppendFeed::thread);
    }
  }
}
