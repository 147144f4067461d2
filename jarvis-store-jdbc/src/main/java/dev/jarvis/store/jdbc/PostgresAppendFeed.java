package dev.jarvis.store.jdbc;

import dev.jarvis.host.AppendListener;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HexFormat;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * PostgreSQL: the appends that any host instance commits to one store's schema, heard on one {@code
 * LISTEN} connection of this instance's own and told to every {@link AppendListener} registered on
 * it. The committing transaction sends the {@code NOTIFY} (migration V10's trigger on {@code
 * jarvis_event}, payload the WorkSession id) on the store's {@linkplain #channel channel}.
 *
 * <p>One connection per store instance, whatever the number of listeners: a host registers one
 * listener per binding, and a {@code LISTEN} connection is a database backend held for the
 * process's lifetime, which a connection per listener would multiply for nothing (every listener
 * wants every append of the schema). The connection is never one of the store's pool, whose
 * connections serve units of work and must come back; it is opened on its own, or, on an
 * application's {@code DataSource}, borrowed for good and discarded (never returned with its {@code
 * LISTEN}) when the feed stops.
 *
 * <p>One daemon thread ({@code jarvis-append-listener <channel>}) waits for notifications at most
 * {@link Timing#poll} at a time; an idle wait ends with a validity check, so that a link gone
 * silent is noticed within about one poll and the answer wait. A lost connection is opened again
 * after a pause that doubles from {@link Timing#firstRetry} to {@link Timing#lastRetry} (no busy
 * loop while the database is down); once it listens again every listener is told {@link
 * AppendListener#mayHaveMissed()}, once, since appends committed in between went unheard.
 */
final class PostgresAppendFeed {

  private static final System.Logger LOG = System.getLogger(PostgresAppendFeed.class.getName());

  /** What every channel name starts with: the rest is the schema's name, or its md5. */
  static final String CHANNEL_PREFIX = "jarvis_append_";

  /** PostgreSQL's longest identifier, channel names included (NAMEDATALEN - 1), in bytes. */
  private static final int LONGEST_NAME = 63;

  /** Opens a connection for the feed. */
  @FunctionalInterface
  interface Connector {
    Connection connect() throws SQLException;
  }

  /**
   * How long the feed waits, each bound derived from the store's {@link StoreTimeouts}.
   *
   * @param poll the longest one wait for notifications, after which an idle connection is checked
   * @param answer the longest the database may take to answer the feed (connect, {@code LISTEN}, a
   *     validity check): the pool's socket bound
   * @param firstRetry the pause before opening a lost connection again, doubled on each failure
   * @param lastRetry the longest pause between two attempts
   * @param firstListen how long registering the first listener waits for the first {@code LISTEN}
   *     (the pool wait: a request waits no longer for a connection)
   * @param stop how long stopping waits for the thread to end
   */
  record Timing(
      Duration poll,
      Duration answer,
      Duration firstRetry,
      Duration lastRetry,
      Duration firstListen,
      Duration stop) {

    static Timing from(StoreTimeouts timeouts) {
      long answerSeconds =
          (timeouts.statementTimeout().toMillis() + timeouts.lockTimeout().toMillis() + 999) / 1000
              + 5;
      return new Timing(
          Duration.ofSeconds(5),
          Duration.ofSeconds(answerSeconds),
          StoreTimeouts.LEAST_POOL_WAIT,
          Duration.ofSeconds(30),
          timeouts.poolWait(),
          timeouts.poolWait());
    }
  }

  /**
   * One registration, equal only to itself: a listener registered twice is told twice, and closing
   * one registration (twice, even) leaves the other.
   */
  private static final class Registration {
    private final AppendListener listener;

    Registration(AppendListener listener) {
      this.listener = listener;
    }

    AppendListener listener() {
      return listener;
    }
  }

  private final String channel;
  private final Connector connector;
  private final Consumer<Connection> discard;
  private final Timing timing;
  private final CopyOnWriteArrayList<Registration> registrations = new CopyOnWriteArrayList<>();
  private final Thread thread;
  // Completed with true by the first LISTEN, or with false once it failed or a registration
  // stopped waiting for it: whichever LISTEN succeeds after a false owes the listeners a
  // mayHaveMissed.
  private final CompletableFuture<Boolean> first = new CompletableFuture<>();
  private volatile boolean stopped;
  private volatile Connection current;
  private volatile int backendPid;

  private PostgresAppendFeed(
      String channel, Connector connector, Consumer<Connection> discard, Timing timing) {
    this.channel = channel;
    this.connector = connector;
    this.discard = discard;
    this.timing = timing;
    this.thread = new Thread(this::run, "jarvis-append-listener " + channel);
    thread.setDaemon(true);
  }

  /**
   * Starts listening on {@code channel}: connections from {@code connector}, given back to {@code
   * discard} (which closes them for good) when lost or stopped.
   */
  static PostgresAppendFeed start(
      String channel, Connector connector, Consumer<Connection> discard, Timing timing) {
    PostgresAppendFeed feed = new PostgresAppendFeed(channel, connector, discard, timing);
    feed.thread.start();
    return feed;
  }

  /**
   * The channel of a store in {@code schema}, as migration V10's trigger names it: {@code
   * jarvis_append_<schema>}, or {@code jarvis_append_<md5 of schema>} when that would pass 63
   * bytes.
   */
  static String channel(String schema) {
    if (CHANNEL_PREFIX.length() + schema.getBytes(StandardCharsets.UTF_8).length <= LONGEST_NAME) {
      return CHANNEL_PREFIX + schema;
    }
    try {
      MessageDigest md5 = MessageDigest.getInstance("MD5");
      return CHANNEL_PREFIX
          + HexFormat.of().formatHex(md5.digest(schema.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has MD5", e);
    }
  }

  /**
   * Tells {@code listener} about appends from the feed's {@code LISTEN} on ({@link #awaitListening}
   * for the first).
   *
   * @return what stops telling {@code listener}; idempotent
   */
  Runnable add(AppendListener listener) {
    Registration registration = new Registration(listener);
    registrations.add(registration);
    return () -> registrations.remove(registration);
  }

  /**
   * Waits, at most {@link Timing#firstListen}, for the feed's first {@code LISTEN}: once this
   * returns, an append is either heard or covered by a later {@link
   * AppendListener#mayHaveMissed()}, since a {@code LISTEN} after the wait gave up tells it.
   */
  void awaitListening() {
    try {
      first.get(timing.firstListen().toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException | ExecutionException e) {
      first.complete(false);
    } catch (InterruptedException e) {
      first.complete(false);
      Thread.currentThread().interrupt();
    }
  }

  /** Whether no listener is registered any more. */
  boolean idle() {
    return registrations.isEmpty();
  }

  /** The listening backend's process id, while it listens (for tests). */
  OptionalInt backendPid() {
    int pid = backendPid;
    return pid == 0 ? OptionalInt.empty() : OptionalInt.of(pid);
  }

  /** The feed's thread (for tests). */
  Thread thread() {
    return thread;
  }

  /**
   * Stops listening, bounded by {@link Timing#stop}: aborts the connection (which ends a wait for
   * notifications at once), interrupts a pause, and waits for the thread at most that long.
   */
  void stop() {
    stopped = true;
    Connection c = current;
    if (c != null) {
      abort(c);
    }
    thread.interrupt();
    if (Thread.currentThread() != thread) {
      try {
        thread.join(timing.stop().toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void run() {
    Duration pause = timing.firstRetry();
    while (!stopped) {
      Connection c = null;
      try {
        c = connector.connect();
        current = c;
        if (stopped) {
          break;
        }
        PGConnection pg = c.unwrap(PGConnection.class);
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
          s.setQueryTimeout(seconds(timing.answer()));
          s.execute("LISTEN \"" + channel.replace("\"", "\"\"") + "\"");
        }
        backendPid = pg.getBackendPID();
        pause = timing.firstRetry();
        if (!first.complete(true)) {
          LOG.log(System.Logger.Level.INFO, "listening for appends again on " + channel);
          registrations.forEach(r -> mayHaveMissed(r.listener()));
        }
        listen(c, pg);
      } catch (SQLException | RuntimeException e) {
        first.complete(false);
        if (!stopped) {
          // The driver's message names the host at most, never the password or the URL's query.
          LOG.log(
              System.Logger.Level.WARNING,
              "lost the connection listening for appends on "
                  + channel
                  + " ("
                  + e.getClass().getSimpleName()
                  + ": "
                  + e.getMessage()
                  + "); retrying in "
                  + pause.toMillis()
                  + " ms");
        }
      } finally {
        backendPid = 0;
        current = null;
        if (c != null) {
          discard.accept(c);
        }
      }
      if (stopped) {
        break;
      }
      try {
        Thread.sleep(pause.toMillis());
      } catch (InterruptedException e) {
        // stop() interrupts; anything else is treated alike: the loop checks stopped.
      }
      pause =
          pause.multipliedBy(2).compareTo(timing.lastRetry()) > 0
              ? timing.lastRetry()
              : pause.multipliedBy(2);
    }
  }

  /** Tells each notification until the connection fails or the feed stops. */
  private void listen(Connection c, PGConnection pg) throws SQLException {
    int poll = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timing.poll().toMillis()));
    while (!stopped) {
      PGNotification[] got = pg.getNotifications(poll);
      if (got == null || got.length == 0) {
        // Idle: a link gone silent would wait forever, so ask the server to answer.
        if (!stopped && !c.isValid(seconds(timing.answer()))) {
          throw new SQLRecoverableException("the listening connection stopped answering", "08006");
        }
        continue;
      }
      for (PGNotification notification : got) {
        String workSessionId = notification.getParameter();
        for (Registration r : registrations) {
          appended(r.listener(), workSessionId);
        }
      }
    }
  }

  private static void appended(AppendListener listener, String workSessionId) {
    try {
      listener.appended(workSessionId);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "an append listener failed", e);
    }
  }

  private static void mayHaveMissed(AppendListener listener) {
    try {
      listener.mayHaveMissed();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "an append listener failed", e);
    }
  }

  private static int seconds(Duration d) {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, (d.toMillis() + 999) / 1000));
  }

  /** Ends the physical connection now, whatever another thread is doing on it. */
  static void abort(Connection c) {
    try {
      c.abort(Runnable::run);
    } catch (SQLException | RuntimeException e) {
      // Already gone.
    }
  }
}
