package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.host.HostStores;
import dev.jarvis.store.jdbc.JdbcHostStores;
import dev.jarvis.store.jdbc.JdbcStoreSettings;
import dev.jarvis.store.tck.testing.PostgresTestSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL goes away under a running host (the link to it cut by a proxy: the machine's cluster
 * is shared and never stopped) and comes back: with the default bounds every append is answered 503
 * within the pool wait and a little more, never 500; readiness turns DOWN within 3 s and UP within
 * 3 s of the link returning; liveness answers within 1 s throughout; the host takes appends again
 * without a restart, and every 201 is in the chain.
 */
class PostgresOutageTest {

  private static final Duration READINESS_BOUND = Duration.ofSeconds(3);

  /** The pool wait (2 s) and a margin for a loaded 2-core machine. */
  private static final Duration FAULT_BOUND = Duration.ofSeconds(4);

  private final HttpClient http = HttpClient.newHttpClient();

  private int probe(TestHost t, String path) throws Exception {
    long start = System.nanoTime();
    int status =
        http.send(
                HttpRequest.newBuilder(t.host.baseUri().resolve(path))
                    .timeout(Duration.ofSeconds(5))
                    .build(),
                HttpResponse.BodyHandlers.discarding())
            .statusCode();
    if (path.equals(HealthEndpoints.LIVE)) {
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertTrue(took.compareTo(Duration.ofSeconds(1)) < 0, "liveness took " + took);
    }
    return status;
  }

  /** How long until readiness answers {@code wanted}; liveness checked on every round. */
  private Duration readinessBecomes(TestHost t, int wanted, long since) throws Exception {
    while (true) {
      assertEquals(200, probe(t, HealthEndpoints.LIVE));
      if (probe(t, HealthEndpoints.READY) == wanted) {
        return Duration.ofNanos(System.nanoTime() - since);
      }
      Duration waited = Duration.ofNanos(System.nanoTime() - since);
      assertTrue(
          waited.compareTo(READINESS_BOUND) < 0, "readiness not " + wanted + " after " + waited);
    }
  }

  private static Answer append(TestHost t, ChainCursor at, String id) {
    return t.send(
        "POST",
        "/work-sessions/" + Payloads.WS + "/events",
        t.scoped(Payloads.HUMAN, at),
        EventChain.next(at, Payloads.event(id, "note.added", Payloads.HUMAN)).toString());
  }

  @Test
  void anOutageIsAnsweredWith503InBoundedTimeAndTheHostRecoversWithoutARestart() throws Exception {
    try (PostgresTestSchema schema = PostgresTestSchema.create("jarvis_outage")) {
      URI database = URI.create(schema.url().substring("jdbc:".length()));
      try (LinkProxy link = new LinkProxy(database.getHost(), database.getPort())) {
        String viaProxy =
            "jdbc:postgresql://127.0.0.1:"
                + link.port()
                + database.getPath()
                + Optional.ofNullable(database.getRawQuery()).map(q -> "?" + q).orElse("");
        HostStores stores =
            JdbcHostStores.open(
                JdbcStoreSettings.of(viaProxy).withSchema(schema.name()).withPoolSize(4));
        try (TestHost t = TestHost.started(c -> c, b -> b.stores(stores))) {
          assertEquals(201, t.createSession(Payloads.WS).status());
          ChainCursor at = t.cursor();
          assertEquals(201, append(t, at, "event-before").status());
          at = t.cursor();
          assertEquals(200, probe(t, HealthEndpoints.READY));

          long cutAt = System.nanoTime();
          link.cut();
          Duration worstFault = Duration.ZERO;
          for (int i = 0; i < 3; i++) {
            long start = System.nanoTime();
            Answer a = append(t, at, "event-during-" + i);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertEquals(503, a.status(), a.text());
            assertEquals("unknown_state", a.errorId());
            assertTrue(a.header("Retry-After").isPresent());
            worstFault = took.compareTo(worstFault) > 0 ? took : worstFault;
          }
          assertTrue(worstFault.compareTo(FAULT_BOUND) < 0, "a fault took " + worstFault);
          Duration down = readinessBecomes(t, 503, cutAt);

          long restoredAt = System.nanoTime();
          link.restore();
          Duration up = readinessBecomes(t, 200, restoredAt);
          // The same request again: it was never written, so it applies now.
          Map<String, String> headers = t.scoped(Payloads.HUMAN, at);
          String event =
              EventChain.next(at, Payloads.event("event-after", "note.added", Payloads.HUMAN))
                  .toString();
          Answer after =
              t.send("POST", "/work-sessions/" + Payloads.WS + "/events", headers, event);
          assertEquals(201, after.status(), after.text());
          Duration firstAccepted = Duration.ofNanos(System.nanoTime() - restoredAt);
          assertEquals(at.revision() + 1, t.cursor().revision());
          assertEquals(Optional.empty(), EventChain.verify(stores.sessions().events(Payloads.WS)));
          System.out.printf(
              "PostgreSQL outage: slowest 503 %d ms, readiness DOWN after %d ms, UP %d ms after"
                  + " the link returned, first 201 after %d ms%n",
              worstFault.toMillis(), down.toMillis(), up.toMillis(), firstAccepted.toMillis());
        }
      }
    }
  }
}
