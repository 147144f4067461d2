package dev.jarvis.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.host.AgentActions;
import dev.jarvis.host.HostAuth;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.ProtocolRefusal;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.host.StoredSession;
import dev.jarvis.host.WorkSessionGovernance;
import dev.jarvis.samples.SampleRecords;
import dev.jarvis.store.tck.testing.PostgresTestSchema;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * What one appendJarvisEvent costs the database, as an operator sizes a pool and a database by it:
 * the round trips (statements and commits) and the connections borrowed, counted at the JDBC
 * interface on PostgreSQL.
 */
class AppendRoundTripsTest {

  private static final String HUMAN_WORKER = "worker-human-1";
  private static final String AGENT_WORKER = "worker-agent-1";
  private static final String HUMAN = "actor-human-1";
  private static final String AGENT = "actor-agent-1";
  private static final String WS = "ws-round-trips";
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-06-12T18:00:00Z"), ZoneOffset.UTC);

  private PostgresTestSchema schema;
  private CountingDataSource counting;
  private JdbcHostStores stores;
  private ProtocolHost host;
  private int keys;
  private boolean notifying;

  /** Where the store's connections come from. */
  enum Pool {
    /** A DataSource of the application's: each unit sets its own timeouts first. */
    APPLICATIONS_DATA_SOURCE,
    /** The store's own pool, whose connections carry the timeouts from the start. */
    STORES_OWN
  }

  private void hostOnPostgres(Pool pool) throws Exception {
    schema = PostgresTestSchema.create("jarvis_rt");
    if (pool == Pool.APPLICATIONS_DATA_SOURCE) {
      PGSimpleDataSource dataSource = new PGSimpleDataSource();
      dataSource.setUrl(schema.url());
      dataSource.setCurrentSchema(schema.name());
      counting = new CountingDataSource(dataSource);
      stores = JdbcHostStores.on(counting.dataSource());
    } else {
      stores =
          JdbcHostStores.open(
              JdbcStoreSettings.of(schema.url()).withSchema(schema.name()),
              driver -> {
                counting = new CountingDataSource(driver);
                return counting.dataSource();
              });
    }
    host =
        new ProtocolHost(
            HostConfig.builder(HostAuth.anyCaller())
                .clock(CLOCK)
                .traceIds(() -> "trace-round-trips")
                // The note is an agent's record, not an action: no PolicyDecision to look up.
                .agentActions(AgentActions.DEFAULT.withNonActionEventTypes(List.of("note.added")))
                .governance(
                    WorkSessionGovernance.NONE.assignPolicyToEveryHuman(SampleRecords.POLICY_ID))
                .stores(stores)
                .requestNotifications(notifying)
                .build());
    host.seedPolicy(SampleRecords.policy());
    admin("registerWorker", "worker_id", HUMAN_WORKER, SampleRecords.worker(HUMAN_WORKER, "human"));
    admin("registerWorker", "worker_id", AGENT_WORKER, SampleRecords.worker(AGENT_WORKER, "agent"));
    admin(
        "registerActor",
        "actor_id",
        HUMAN,
        SampleRecords.actor(HUMAN, HUMAN_WORKER, "human", "2026-06-12T17:00:00Z"));
    admin(
        "registerActor",
        "actor_id",
        AGENT,
        SampleRecords.actor(AGENT, AGENT_WORKER, "agent", "2026-06-12T17:00:00Z"));
    accepted(
        send(
            "createWorkSession",
            Map.of(),
            HUMAN,
            ChainCursor.GENESIS,
            SampleRecords.workSession(WS, HUMAN, HUMAN_WORKER, AGENT_WORKER, now())));
  }

  @AfterEach
  void dropSchema() throws Exception {
    if (stores != null) {
      stores.close();
    }
    if (schema != null) {
      schema.close();
    }
  }

  @ParameterizedTest(name = "on {0}")
  @EnumSource(Pool.class)
  void anAgentsAppendReadsTwiceAndWritesInOneCall(Pool pool) throws Exception {
    hostOnPostgres(pool);
    ChainCursor at = stores.find(WS).map(StoredSession::cursor).orElseThrow();
    JsonNode event =
        EventChain.next(
            at, SampleRecords.eventDraft("event-note-1", WS, AGENT, "note.added", now()));
    counting.reset();

    accepted(send("appendJarvisEvent", Map.of("work_session_id", WS), AGENT, at, event));

    // Reads outside the unit, each on a connection of its own: the acting Actor joined to its
    // Worker (the guard; the rest of the request reuses that Actor), and the WorkSession joined to
    // its open Requests (the expiry check) with whether its chain holds the event's id (an id is
    // appended once). The unit, on the store's own pool: one call of jarvis_commit in autocommit
    // (the idempotency claim, the conditional WorkSession update and the event insert, committed
    // by the server when the call returns), no COMMIT of its own. On a DataSource of the
    // application's, whose connections carry none of the store's session settings, the unit is a
    // transaction that first sets its statement and lock timeouts (SET LOCAL), then the call, then
    // COMMIT. Before: 4 reads (Actor, Worker, WorkSession, event id) and, before migration V6, a
    // transaction of three statements, one per write.
    boolean applications = pool == Pool.APPLICATIONS_DATA_SOURCE;
    assertEquals(
        Map.of(
            "round trips",
            applications ? 5 : 3,
            "statements",
            applications ? 4 : 3,
            "commits",
            applications ? 1 : 0,
            "borrowed connections",
            // Counted below the store's own pool, these are connections opened: none, the pool
            // lends those it holds.
            applications ? 3 : 0),
        Map.of(
            "round trips", counting.roundTrips(),
            "statements", counting.statements.get(),
            "commits", counting.commits.get(),
            "borrowed connections", counting.borrows.get()));
  }

  /**
   * Issue 39: the notification outbox adds at most one row and no round trip to the unit. A
   * Takeover (which notifies) costs the same round trips, statements and commits with the outbox as
   * without: on PostgreSQL its row is inserted by the very statement that calls jarvis_commit.
   */
  @ParameterizedTest(name = "on {0}")
  @EnumSource(Pool.class)
  void aTakeoverCostsTheSameRoundTripsWithItsNotificationAsWithout(Pool pool) throws Exception {
    Map<Boolean, Map<String, Integer>> cost = new java.util.HashMap<>();
    for (boolean on : new boolean[] {false, true}) {
      notifying = on;
      hostOnPostgres(pool);
      ChainCursor at = stores.find(WS).map(StoredSession::cursor).orElseThrow();
      JsonNode takeover =
          JarvisJson.mapper()
              .readTree(
                  """
                  {"id": "to-1", "work_session_id": "%s", "requested_by_actor_id": "%s",
                   "controlling_actor_id": "%s",
                   "affected_scope": {"blocking_scope": "branch", "scope_ref": "scope:a"},
                   "reason": "The human steers this branch.", "lock_epoch": 1,
                   "state": "locked", "created_at": "%s"}
                  """
                      .formatted(WS, HUMAN, HUMAN, now()));
      counting.reset();
      accepted(send("recordTakeover", Map.of("work_session_id", WS), HUMAN, at, takeover));
      cost.put(
          on,
          Map.of(
              "round trips", counting.roundTrips(),
              "statements", counting.statements.get(),
              "commits", counting.commits.get()));
      assertEquals(on ? 1 : 0, stores.notificationOutbox().orElseThrow().pending());
      dropSchema();
      stores = null;
      schema = null;
    }
    assertEquals(cost.get(false), cost.get(true));
  }

  private void admin(String operationId, String pathName, String id, JsonNode body) {
    accepted(
        send(operationId, Map.of(pathName, id), HostConfig.DEFAULT_ADMIN_ACTOR_ID, null, body));
  }

  private StoredResponse send(
      String operationId,
      Map<String, String> path,
      String actor,
      ChainCursor cursor,
      JsonNode body) {
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.put(JarvisHeaders.PROTOCOL_VERSION, JarvisSpec.PROTOCOL_VERSION);
    headers.put(JarvisHeaders.ACTOR_ID, actor);
    headers.put(JarvisHeaders.IDEMPOTENCY_KEY, "round-trips-" + ++keys);
    headers.put(JarvisHeaders.REQUEST_TIMESTAMP, now());
    if (cursor != null) {
      headers.put(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION, Long.toString(cursor.revision()));
      headers.put(JarvisHeaders.PREVIOUS_EVENT_HASH, cursor.lastEventHash());
    }
    try {
      return host.handleCall(
              host.check(
                  ProtocolOperations.byId(operationId),
                  name -> Optional.ofNullable(headers.get(name)),
                  path,
                  body.toString().getBytes(StandardCharsets.UTF_8)))
          .response();
    } catch (ProtocolRefusal refusal) {
      return host.refusal(refusal);
    }
  }

  private static void accepted(StoredResponse response) {
    assertEquals(
        true,
        response.status() < 300,
        () -> "refused: " + new String(response.body(), StandardCharsets.UTF_8));
  }

  private static String now() {
    return RequestTimestamp.format(CLOCK.instant());
  }
}
