package dev.jarvis.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.host.AppendListener;
import dev.jarvis.host.CommitResult;
import dev.jarvis.host.Mutation;
import dev.jarvis.store.tck.testing.PostgresTestSchema;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Appends across host instances on PostgreSQL (migration V10's {@code NOTIFY}, {@link
 * JdbcHostStores#listenForAppends}): what one instance commits, a listener on another instance of
 * the same schema hears, and only that. Every wait is on a queue or semaphore with a generous
 * bound; nothing sleeps.
 */
class PostgresAppendFeedTest {

  /** Far longer than a notification takes on any machine: only a broken feed waits this long. */
  private static final Duration BOUND = Duration.ofSeconds(30);

  @TempDir Path dir;
  private final List<AutoCloseable> opened = new ArrayList<>();
  private final List<PostgresTestSchema> schemas = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
    for (PostgresTestSchema schema : schemas) {
      schema.close();
    }
  }

  private PostgresTestSchema schema(String prefix) throws Exception {
    PostgresTestSchema schema = PostgresTestSchema.create(prefix);
    schemas.add(schema);
    return schema;
  }

  /** One host instance: a store with its own pool on the schema. */
  private JdbcHostStores instance(PostgresTestSchema schema) {
    JdbcHostStores stores = JdbcHostStores.open(settings(schema));
    opened.add(stores);
    return stores;
  }

  /**
   * The pool wait bounds how long registering a listener waits for the first {@code LISTEN}: a
   * generous one, so that a loaded machine never lets an append slip in before it.
   */
  private static JdbcStoreSettings settings(PostgresTestSchema schema) {
    return JdbcStoreSettings.of(schema.url())
        .withSchema(schema.name())
        .withPoolSize(2)
        .withTimeouts(StoreTimeouts.defaults().withPoolWait(BOUND));
  }

  private AutoCloseable listen(JdbcHostStores stores, AppendListener listener) {
    AutoCloseable listening = stores.listenForAppends(listener);
    opened.add(listening);
    return listening;
  }

  /** What a listener heard, in order. */
  private static final class Heard implements AppendListener {
    final BlockingQueue<String> appended = new LinkedBlockingQueue<>();
    final Semaphore missed = new Semaphore(0);

    @Override
    public void appended(String workSessionId) {
      appended.add(workSessionId);
    }

    @Override
    public void mayHaveMissed() {
      missed.release();
    }

    /** The next WorkSession id heard, waiting at most {@link #BOUND}. */
    String next() throws InterruptedException {
      String id = appended.poll(BOUND.toMillis(), TimeUnit.MILLISECONDS);
      assertNotNull(id, "no append heard within " + BOUND);
      return id;
    }

    boolean toldMayHaveMissed() throws InterruptedException {
      return missed.tryAcquire(BOUND.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private static ChainCursor cursor(JdbcHostStores stores, String workSessionId) {
    return stores.sessions().find(workSessionId).orElseThrow().cursor();
  }

  private static void committed(JdbcHostStores stores, Mutation mutation) {
    assertEquals(CommitResult.Outcome.COMMITTED, stores.commit(mutation).outcome());
  }

  @Test
  void anEventCommittedThroughOneInstanceIsHeardByAListenerOnAnother() throws Exception {
    PostgresTestSchema schema = schema("jarvis_feed");
    JdbcHostStores a = instance(schema);
    JdbcHostStores b = instance(schema);
    Heard heard = new Heard();
    listen(b, heard);

    committed(a, Units.genesis("ws-1"));
    assertEquals("ws-1", heard.next());
    committed(a, Units.append("ws-1", cursor(a, "ws-1"), "k1", 0));
    assertEquals("ws-1", heard.next());
  }

  @Test
  void anEventCommittedInAUnitWithAStepIsHeardToo() throws Exception {
    // A unit with a step (an outbox, or a commit hook on an event the host writes itself, such as
    // a Request's expiry) runs as a transaction of its own instead of the one-call commit.
    PostgresTestSchema schema = schema("jarvis_feed");
    JdbcHostStores a = instance(schema);
    JdbcHostStores b = instance(schema);
    committed(a, Units.genesis("ws-1"));
    Heard heard = new Heard();
    listen(b, heard);

    committed(a, Units.append("ws-1", cursor(a, "ws-1"), "k1", 0).within(unit -> {}));
    assertEquals("ws-1", heard.next());
  }

  @Test
  void aConflictingOrRolledBackUnitSendsNothing() throws Exception {
    PostgresTestSchema schema = schema("jarvis_feed");
    JdbcHostStores a = instance(schema);
    JdbcHostStores b = instance(schema);
    committed(a, Units.genesis("ws-conflict"));
    committed(a, Units.genesis("ws-rolled-back"));
    Heard heard = new Heard();
    listen(b, heard);

    // A stale cursor: the chain write's condition fails.
    assertEquals(
        CommitResult.Outcome.CONFLICT,
        a.commit(Units.append("ws-conflict", ChainCursor.GENESIS, "k1", 0)).outcome());
    // The event is written, then the step fails: the whole unit is rolled back.
    Mutation refused =
        Units.append("ws-rolled-back", cursor(a, "ws-rolled-back"), "k2", 0)
            .within(
                unit -> {
                  throw new IllegalStateException("the outbox refuses");
                });
    assertThrows(IllegalStateException.class, () -> a.commit(refused));
    // Notifications come in commit order: the marker is the first thing heard.
    committed(a, Units.genesis("ws-marker"));
    assertEquals("ws-marker", heard.next());
    assertTrue(heard.appended.isEmpty(), () -> "heard more: " + heard.appended);
  }

  @Test
  void aListenerOfAnotherSchemaHearsNothingOfThisOne() throws Exception {
    PostgresTestSchema one = schema("jarvis_feed");
    PostgresTestSchema other = schema("jarvis_feed_other");
    JdbcHostStores a = instance(one);
    JdbcHostStores b = instance(one);
    JdbcHostStores c = instance(other);
    Heard sameSchema = new Heard();
    Heard otherSchema = new Heard();
    listen(b, sameSchema);
    listen(c, otherSchema);

    committed(a, Units.genesis("ws-1"));
    assertEquals("ws-1", sameSchema.next());
    committed(c, Units.genesis("ws-other"));
    assertEquals("ws-other", otherSchema.next());
    assertTrue(otherSchema.appended.isEmpty(), () -> "heard more: " + otherSchema.appended);
  }

  @Test
  void aSchemaNameTooLongForAChannelIsHeardOnItsHashedChannel() throws Exception {
    // 50 + "_" + 12 random characters: 63, the longest identifier, so the channel is the md5's.
    PostgresTestSchema schema = schema("jarvis_feed_" + "x".repeat(38));
    assertEquals(63, schema.name().length());
    assertEquals(
        PostgresAppendFeed.CHANNEL_PREFIX.length() + 32,
        PostgresAppendFeed.channel(schema.name()).length());
    JdbcHostStores a = instance(schema);
    JdbcHostStores b = instance(schema);
    Heard heard = new Heard();
    listen(b, heard);

    committed(a, Units.genesis("ws-1"));
    assertEquals("ws-1", heard.next());
  }

  @Test
  void afterItsConnectionIsKilledTheListenerMayHaveMissedAndHearsLaterAppends() throws Exception {
    PostgresTestSchema schema = schema("jarvis_feed");
    JdbcHostStores a = instance(schema);
    JdbcHostStores b = instance(schema);
    Heard heard = new Heard();
    listen(b, heard);
    int killed = b.listeningBackendPid().orElseThrow();

    // Only the listening backend is terminated; the cluster and every other session stay up.
    try (Connection admin = DriverManager.getConnection(schema.url());
        PreparedStatement s = admin.prepareStatement("SELECT pg_terminate_backend(?)")) {
      s.setInt(1, killed);
      try (ResultSet r = s.executeQuery()) {
        assertTrue(r.next() && r.getBoolean(1), "the listening backend was terminated");
      }
    }

    assertTrue(heard.toldMayHaveMissed(), "mayHaveMissed after listening again");
    assertNotEquals(killed, b.listeningBackendPid().orElseThrow());
    committed(a, Units.genesis("ws-after"));
    assertEquals("ws-after", heard.next());
  }

  @Test
  void aHealthyStartTellsNoListenerItMayHaveMissed() throws Exception {
    PostgresTestSchema schema = schema("jarvis_feed");
    JdbcHostStores a = instance(schema);
    JdbcHostStores b = instance(schema);
    Heard heard = new Heard();
    listen(b, heard);

    committed(a, Units.genesis("ws-1"));
    assertEquals("ws-1", heard.next());
    assertEquals(0, heard.missed.availablePermits());
  }

  @Test
  void listenersOfOneInstanceShareOneListeningConnection() throws Exception {
    PostgresTestSchema schema = schema("jarvis_feed");
    JdbcHostStores a = instance(schema);
    JdbcHostStores b = instance(schema);
    Heard first = new Heard();
    Heard second = new Heard();
    listen(b, first);
    int backend = b.listeningBackendPid().orElseThrow();
    AutoCloseable secondListening = listen(b, second);
    assertEquals(backend, b.listeningBackendPid().orElseThrow());

    committed(a, Units.genesis("ws-1"));
    assertEquals("ws-1", first.next());
    assertEquals("ws-1", second.next());

    // One leaving keeps the connection for the other.
    secondListening.close();
    committed(a, Units.genesis("ws-2"));
    assertEquals("ws-2", first.next());
    assertEquals(backend, b.listeningBackendPid().orElseThrow());
    assertTrue(second.appended.isEmpty(), () -> "heard after closing: " + second.appended);
  }

  @Test
  void aListenerRegisteredTwiceIsToldTwiceAndClosingOneRegistrationTwiceLeavesTheOther()
      throws Exception {
    PostgresTestSchema schema = schema("jarvis_feed");
    JdbcHostStores a = instance(schema);
    JdbcHostStores b = instance(schema);
    Heard heard = new Heard();
    AutoCloseable once = listen(b, heard);
    listen(b, heard);

    committed(a, Units.genesis("ws-1"));
    assertEquals("ws-1", heard.next());
    assertEquals("ws-1", heard.next());
    once.close();
    once.close();
    committed(a, Units.genesis("ws-2"));
    assertEquals("ws-2", heard.next());
    committed(a, Units.genesis("ws-3"));
    assertEquals("ws-3", heard.next());
  }

  @Test
  void closingTheLastListenerStopsItsThreadWithinABound() throws Exception {
    PostgresTestSchema schema = schema("jarvis_feed");
    JdbcHostStores b = instance(schema);
    AutoCloseable listening = listen(b, new Heard());
    Thread thread = b.appendFeedThread().orElseThrow();
    assertTrue(thread.isDaemon());
    assertTrue(thread.getName().startsWith("jarvis-append-listener"), thread.getName());

    long start = System.nanoTime();
    listening.close();
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertTrue(took.compareTo(Duration.ofSeconds(5)) < 0, "closing took " + took);
    assertFalse(thread.isAlive(), "the listening thread ended");
    assertTrue(b.appendFeedThread().isEmpty());
    assertTrue(b.listeningBackendPid().isEmpty());
    listening.close(); // a second close is harmless
  }

  @Test
  void closingTheStoreStopsEveryListener() throws Exception {
    PostgresTestSchema schema = schema("jarvis_feed");
    JdbcHostStores b = JdbcHostStores.open(settings(schema));
    b.listenForAppends(new Heard());
    b.listenForAppends(new Heard());
    Thread thread = b.appendFeedThread().orElseThrow();

    long start = System.nanoTime();
    b.close();
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertTrue(took.compareTo(Duration.ofSeconds(5)) < 0, "closing took " + took);
    assertFalse(thread.isAlive(), "the listening thread ended");
    assertThrows(IllegalStateException.class, () -> b.listenForAppends(new Heard()));
  }

  @Test
  void aStoreOnAnApplicationsDataSourceHearsAppendsOfAnInstanceWithItsOwnPool() throws Exception {
    PostgresTestSchema schema = schema("jarvis_feed");
    JdbcHostStores a = instance(schema);
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setUrl(schema.url());
    JdbcHostStores b =
        JdbcHostStores.on(dataSource, schema.name(), StoreTimeouts.defaults().withPoolWait(BOUND));
    opened.add(b);
    Heard heard = new Heard();
    listen(b, heard);

    committed(a, Units.genesis("ws-1"));
    assertEquals("ws-1", heard.next());
  }

  @Test
  void theEmbeddedStoreStartsNoListeningThread() throws Exception {
    JdbcHostStores sqlite =
        JdbcHostStores.open(JdbcStoreSettings.of("jdbc:sqlite:" + dir.resolve("store.db")));
    opened.add(sqlite);
    listen(sqlite, new Heard());
    assertTrue(sqlite.appendFeedThread().isEmpty());
    assertTrue(sqlite.listeningBackendPid().isEmpty());
  }
}
