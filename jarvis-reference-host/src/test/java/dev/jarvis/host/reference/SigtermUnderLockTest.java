package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.store.tck.testing.PostgresTestSchema;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scenario, as a process: SIGTERM to a host on PostgreSQL while appends wait on a row
 * lock another transaction holds. It exited after 35 s (the grace was 10 s); now each waiting
 * append ends at the lock timeout (2 s) with a 503, or its connection closes, and the process exits
 * well within the grace and 2 s.
 */
class SigtermUnderLockTest {

  private static final Duration BOUND = ReferenceHost.SHUTDOWN_GRACE.plusSeconds(2);
  private static final int WAITING = 4;

  @TempDir Path dir;

  @Test
  void sigtermWhileAppendsWaitOnARowLockExitsWithinTheGraceAndTwoSeconds() throws Exception {
    try (PostgresTestSchema schema = PostgresTestSchema.create("jarvis_sigterm")) {
      String store = schema.url() + "&currentSchema=" + schema.name();
      Path policy = Files.writeString(dir.resolve("policy.json"), Payloads.policy().toString());
      Process host =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-cp",
                  System.getProperty("java.class.path"),
                  ReferenceHostMain.class.getName(),
                  "0",
                  TestHost.TOKEN,
                  store,
                  policy.toString())
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      try (Connection holder = DriverManager.getConnection(store);
          Connection observer = DriverManager.getConnection(store)) {
        TestHost client = TestHost.registered(TestHost.remote(baseUri(host)));
        assertEquals(201, client.createSession(Payloads.WS).status());
        ChainCursor at = client.cursor();
        holder.setAutoCommit(false);
        try (PreparedStatement s =
            holder.prepareStatement("SELECT id FROM jarvis_work_session WHERE id = ? FOR UPDATE")) {
          s.setString(1, Payloads.WS);
          s.executeQuery().close();
        }
        List<CompletableFuture<Integer>> waiting = new ArrayList<>();
        for (int i = 0; i < WAITING; i++) {
          ObjectNode draft = Payloads.event("event-" + i, "note.added", Payloads.HUMAN);
          draft.put("timestamp", RequestTimestamp.format(client.clock.instant()));
          String body = EventChain.next(at, draft).toString();
          waiting.add(
              CompletableFuture.supplyAsync(
                  () ->
                      client
                          .send(
                              "POST",
                              "/work-sessions/" + Payloads.WS + "/events",
                              client.scoped(Payloads.HUMAN, at),
                              body)
                          .status()));
        }
        int holderPid = pid(holder);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!waitsOn(observer, holderPid)) {
          assertTrue(System.nanoTime() - deadline < 0, "no append reached the lock");
        }

        long start = System.nanoTime();
        host.destroy(); // SIGTERM: the shutdown hook closes the host
        assertTrue(host.waitFor(BOUND.toSeconds() + 5, TimeUnit.SECONDS), "still running");
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(took.compareTo(BOUND) < 0, "exited after " + took);

        for (CompletableFuture<Integer> append : waiting) {
          try {
            assertEquals(503, append.get(30, TimeUnit.SECONDS), "a waiting append's answer");
          } catch (ExecutionException closed) {
            assertTrue(closed.getCause() instanceof UncheckedIOException, closed.toString());
          }
        }
        holder.rollback();
        System.out.printf(
            "SIGTERM with %d appends waiting on a row lock: exit after %d ms%n",
            WAITING, took.toMillis());
      } finally {
        host.destroyForcibly();
      }
    }
  }

  private static int pid(Connection c) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT pg_backend_pid()");
        ResultSet r = s.executeQuery()) {
      r.next();
      return r.getInt(1);
    }
  }

  private static boolean waitsOn(Connection observer, int holder) throws SQLException {
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

  private static URI baseUri(Process process) throws Exception {
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line =
        CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return out.readLine();
                  } catch (java.io.IOException e) {
                    throw new UncheckedIOException(e);
                  }
                })
            .get(60, TimeUnit.SECONDS);
    assertTrue(line != null && line.startsWith("listening on "), "host said: " + line);
    return URI.create(line.split(" ")[2]);
  }
}
