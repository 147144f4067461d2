package dev.jarvis.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.host.CommitResult;
import dev.jarvis.host.HostStores;
import dev.jarvis.host.StoreUnavailableException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk on the embedded store, made cheaply with a size-limited database file ({@code
 * max_page_count}): after {@code SQLITE_FULL}, sqlite-jdbc has left the transaction while it still
 * reports one, and a pool that kept that connection committed later units statement by statement,
 * an idempotency record without its event. Every append past the limit must be refused whole, and
 * once there is room again (the same file, a larger limit) appends commit.
 */
class SqliteDiskFullTest {

  private static final String WS = "ws-full";

  /** Room for the schema and a few dozen 3 KiB events, in 4 KiB pages. */
  private static final int PAGES = 80;

  private static final int PADDING = 3_000;

  @TempDir Path dir;
  private HostStores stores;

  @AfterEach
  void close() {
    if (stores != null) {
      stores.close();
    }
  }

  private Path file() {
    return dir.resolve("full.sqlite");
  }

  private HostStores open(int pages) {
    return JdbcHostStores.open(
        JdbcStoreSettings.of("jdbc:sqlite:" + file() + "?max_page_count=" + pages).withPoolSize(4));
  }

  @Test
  void anAppendOnAFullDatabaseIsRefusedWholeAndAppendsCommitOnceThereIsRoomAgain()
      throws Exception {
    stores = open(PAGES);
    assertEquals(CommitResult.Outcome.COMMITTED, stores.commit(Units.genesis(WS)).outcome());
    List<String> keys = new ArrayList<>();
    int committed = 0;
    int refused = 0;
    // Fill it, then go on trying: each refusal is a chance for a kept connection to leak a half.
    for (int i = 0; refused < 25 && i < 10_000; i++) {
      ChainCursor at = stores.sessions().find(WS).orElseThrow().cursor();
      String key = "k-" + i;
      keys.add(key);
      try {
        CommitResult result = stores.commit(Units.append(WS, at, key, PADDING));
        assertEquals(CommitResult.Outcome.COMMITTED, result.outcome(), key);
        committed++;
      } catch (StoreUnavailableException full) {
        assertEquals(StoreUnavailableException.Outcome.NOT_WRITTEN, full.outcome(), key);
        assertTrue(
            full.getCause().getMessage().contains("SQLITE_FULL"), full.getCause().toString());
        refused++;
      }
    }
    assertTrue(committed > 0, "the limit left no room for any append");
    assertEquals(25, refused, "the database never filled");
    assertEveryStoredAnswerHasItsEvent(keys);
    assertEquals(committed + 1, stores.sessions().events(WS).size());
    assertTrue(stores.sessions().find(WS).isPresent(), "reads still answer");
    assertFalse(stores.ready(), "readiness says DOWN while nothing can be written");
    stores.close();

    // Room again: the same file with a larger limit takes appends, and checks clean.
    stores = open(PAGES * 4);
    ChainCursor at = stores.sessions().find(WS).orElseThrow().cursor();
    assertEquals(
        CommitResult.Outcome.COMMITTED,
        stores.commit(Units.append(WS, at, "k-after", PADDING)).outcome());
    keys.add("k-after");
    assertEveryStoredAnswerHasItsEvent(keys);
    assertEquals(Optional.empty(), EventChain.verify(stores.sessions().events(WS)));
    stores.close();
    stores = null;
    assertEquals("ok", integrityCheck());
  }

  /** A key's idempotency record is stored exactly when its event is (the event cites the key). */
  private void assertEveryStoredAnswerHasItsEvent(List<String> keys) {
    for (String key : keys) {
      boolean answer = stores.idempotency().find(Units.scope(key), Instant.EPOCH).isPresent();
      boolean event = stores.sessions().countCiting(WS, "evidence:" + key) == 1;
      assertEquals(event, answer, key + ": stored answer " + answer + ", event " + event);
    }
    long revision = stores.sessions().find(WS).orElseThrow().cursor().revision();
    assertEquals(revision, stores.sessions().events(WS).size(), "cursor and chain disagree");
  }

  private String integrityCheck() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file());
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("PRAGMA integrity_check")) {
      r.next();
      return r.getString(1);
    }
  }
}
