package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.host.HostStores;
import dev.jarvis.store.jdbc.JdbcHostStores;
import dev.jarvis.store.jdbc.JdbcStoreSettings;
import dev.jarvis.store.jdbc.StoreTimeouts;
import dev.jarvis.store.tck.testing.PostgresTestSchema;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Shutdown is bounded even while a request waits on the database longer than the grace (a row lock
 * held elsewhere, and lock and statement timeouts set longer than the grace): past the grace the
 * store work is aborted, the request is answered (503) or its connection closed, never 201 or 500,
 * and {@code close} returns within the grace and 2 s.
 */
class BoundedShutdownTest {

  private static final Duration GRACE = Duration.ofSeconds(1);
  private static final Duration BOUND = GRACE.plusSeconds(2);

  private static int backendPid(Connection c) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT pg_backend_pid()");
        ResultSet r = s.executeQuery()) {
      r.next();
      return r.getInt(1);
    }
  }

  private static boolean someoneWaitsOn(Connection observer, int holder) throws SQLException {
    try (PreparedStatement s =
        observer.prepareStatement(
            "SELECT count(*) FROM pg_stat_activity WHERE ? = ANY(pg_blocking_pids(pid))")) {
      s.setInt(1, holder);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return r.getInt(1) > 0;
      }
    }
  }

  @ParameterizedTest(name = "on {0}")
  @EnumSource(HttpRuntime.class)
  void aRequestBlockedInTheDatabasePastTheGraceDoesNotHoldTheShutdown(HttpRuntime runtime)
      throws Exception {
    try (PostgresTestSchema schema = PostgresTestSchema.create("jarvis_shutdown")) {
      Duration longWait = Duration.ofSeconds(60);
      HostStores stores =
          JdbcHostStores.open(
              JdbcStoreSettings.of(schema.url())
                  .withSchema(schema.name())
                  .withPoolSize(4)
                  .withTimeouts(
                      StoreTimeouts.defaults()
                          .withLockTimeout(longWait)
                          .withStatementTimeout(longWait)));
      TestHost t = TestHost.started(c -> c.runtime(runtime), b -> b.stores(stores));
      assertEquals(201, t.createSession(Payloads.WS).status());
      ChainCursor at = t.cursor();
      String url = schema.url() + "&currentSchema=" + schema.name();
      try (Connection holder = DriverManager.getConnection(url);
          Connection observer = DriverManager.getConnection(url)) {
        holder.setAutoCommit(false);
        try (PreparedStatement s =
            holder.prepareStatement("SELECT id FROM jarvis_work_session WHERE id = ? FOR UPDATE")) {
          s.setString(1, Payloads.WS);
          s.executeQuery().close();
        }
        CompletableFuture<Integer> blocked =
            CompletableFuture.supplyAsync(
                () ->
                    t.send(
                            "POST",
                            "/work-sessions/" + Payloads.WS + "/events",
                            t.scoped(Payloads.HUMAN, at),
                            EventChain.next(
                                    at, Payloads.event("event-1", "note.added", Payloads.HUMAN))
                                .toString())
                        .status());
        int holderPid = backendPid(holder);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!someoneWaitsOn(observer, holderPid)) {
          assertTrue(System.nanoTime() - deadline < 0, "the append never reached the lock");
        }

        long start = System.nanoTime();
        t.host.close(GRACE);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(took.compareTo(BOUND) < 0, "close took " + took);

        try {
          int status = blocked.get(30, TimeUnit.SECONDS);
          assertEquals(503, status, "the aborted request's answer");
        } catch (ExecutionException closed) {
          // Its connection closed before the answer: the client retries with the same key.
          assertTrue(closed.getCause() instanceof UncheckedIOException, closed.toString());
        }
        holder.rollback();
        System.out.printf(
            "shutdown on %s with a request blocked in SQL: %d ms%n", runtime, took.toMillis());
      }
    }
  }
}
