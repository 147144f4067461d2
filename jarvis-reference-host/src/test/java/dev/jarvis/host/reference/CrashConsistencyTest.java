package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.host.HostStores;
import dev.jarvis.host.IdempotencyStore;
import dev.jarvis.host.StoredSession;
import dev.jarvis.store.jdbc.StoreSpec;
import dev.jarvis.store.tck.testing.PostgresTestSchema;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code kill -9} of a host process under load, then a restart on the same store: every mutation
 * answered 201 is there, every chain verifies from genesis, no mutation is half-written (an event
 * exists exactly when its idempotency record does), and the restarted host answers the same cursor
 * and replays the same bytes. Separate processes ({@link ReferenceHostMain}), for the embedded
 * store and for PostgreSQL.
 */
class CrashConsistencyTest {

  private static final int SESSIONS = 4;

  /**
   * Answers each WorkSession must have had before the kill: counted per session, because a total
   * could be reached by the other sessions alone while one writer had not yet been answered.
   */
  private static final int ACKNOWLEDGED_PER_SESSION = 10;

  /** One append sent: what was asked and, if it came, the answer. */
  private record Sent(
      String workSessionId,
      String eventId,
      Map<String, String> headers,
      String body,
      Optional<Answer> answer) {}

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"embedded", "postgresql"})
  void aKilledHostLosesNoAnsweredMutationAndLeavesNoneHalfWritten(String kind) throws Exception {
    PostgresTestSchema schema = null;
    String store;
    if (kind.equals("embedded")) {
      store = "jdbc:sqlite:" + dir.resolve(StoreSpec.EMBEDDED_FILE);
    } else {
      schema = PostgresTestSchema.create("jarvis_crash");
      store =
          schema.url()
              + (schema.url().contains("?") ? "&" : "?")
              + "currentSchema="
              + schema.name();
    }
    try {
      run(store);
    } finally {
      if (schema != null) {
        schema.close();
      }
    }
  }

  private void run(String store) throws Exception {
    Path policy = dir.resolve("policy.json");
    Files.writeString(policy, Payloads.policy().toString());
    Process first = start(store, policy);
    ConcurrentLinkedQueue<Sent> sent = new ConcurrentLinkedQueue<>();
    CountDownLatch acknowledged = new CountDownLatch(SESSIONS);
    ExecutorService writers = Executors.newFixedThreadPool(SESSIONS);
    try {
      TestHost client = TestHost.registered(TestHost.remote(baseUri(first)));
      for (int s = 0; s < SESSIONS; s++) {
        assertEquals(201, client.createSession(ws(s)).status());
      }
      for (int s = 0; s < SESSIONS; s++) {
        String ws = ws(s);
        writers.submit(() -> load(client, ws, sent, acknowledged));
      }
      assertTrue(
          acknowledged.await(60, TimeUnit.SECONDS),
          () -> "the load did not get going on every WorkSession: " + statuses(sent));
      first.destroyForcibly(); // SIGKILL: no shutdown hook, no pool close
      first.waitFor(30, TimeUnit.SECONDS);
    } finally {
      writers.shutdown();
      assertTrue(writers.awaitTermination(60, TimeUnit.SECONDS));
      first.destroyForcibly();
    }

    try (HostStores stores = StoreSpec.parse(store).open(Optional.empty())) {
      for (int s = 0; s < SESSIONS; s++) {
        StoredSession session = stores.sessions().find(ws(s)).orElseThrow();
        List<JsonNode> events = stores.sessions().events(ws(s));
        assertEquals(Optional.empty(), EventChain.verify(events), ws(s));
        assertEquals(events.size(), session.cursor().revision());
        JsonNode last = events.get(events.size() - 1);
        assertEquals(last.path("event_hash").asText(), session.cursor().lastEventHash());
      }
      for (Sent request : sent) {
        Optional<JsonNode> event =
            stores.sessions().event(request.workSessionId(), request.eventId());
        Optional<IdempotencyStore.Entry> record =
            stores
                .idempotency()
                .find(
                    new IdempotencyStore.Scope(
                        Payloads.HUMAN,
                        "appendJarvisEvent",
                        JarvisSpec.PROTOCOL_VERSION,
                        request.headers().get("Jarvis-Idempotency-Key")),
                    Instant.EPOCH);
        assertEquals(event.isPresent(), record.isPresent(), "half-written: " + request.eventId());
        if (request.answer().filter(a -> a.status() == 201).isPresent()) {
          assertTrue(event.isPresent(), "answered 201 but lost: " + request.eventId());
          assertArrayEquals(request.answer().get().bytes(), record.get().response().body());
        }
      }
    }

    Process second = start(store, policy);
    try {
      TestHost client = TestHost.remote(baseUri(second));
      for (int s = 0; s < SESSIONS; s++) {
        String ws = ws(s);
        Sent lastAnswered =
            sent.stream()
                .filter(r -> r.workSessionId().equals(ws))
                .filter(r -> r.answer().filter(a -> a.status() == 201).isPresent())
                .reduce((x, y) -> y)
                .orElseThrow();
        Map<String, String> retry = new java.util.LinkedHashMap<>(lastAnswered.headers());
        retry.put("Jarvis-Request-Timestamp", RequestTimestamp.format(Instant.now()));
        Answer replay = client.send("POST", events(ws), retry, lastAnswered.body());
        assertEquals(201, replay.status(), replay.text());
        assertArrayEquals(lastAnswered.answer().orElseThrow().bytes(), replay.bytes());
        JsonNode snapshot = client.get("/work-sessions/" + ws, Payloads.HUMAN).json();
        assertTrue(snapshot.path("revision").asLong() >= 2);
      }
    } finally {
      second.destroy(); // SIGTERM: the graceful path
      assertTrue(second.waitFor(30, TimeUnit.SECONDS));
    }
  }

  /** Appends to one WorkSession until the host goes away, recording every request. */
  private static void load(
      TestHost client, String ws, ConcurrentLinkedQueue<Sent> sent, CountDownLatch acknowledged) {
    ChainCursor cursor = client.cursorOf(ws);
    for (int n = 0; ; n++) {
      String eventId = ws + ".note." + n;
      ObjectNode draft = Payloads.event(eventId, "note.added", Payloads.HUMAN);
      draft.put("work_session_id", ws);
      draft.put("timestamp", RequestTimestamp.format(Instant.now()));
      String body = EventChain.next(cursor, draft).toString();
      Map<String, String> headers = client.scoped(Payloads.HUMAN, cursor);
      Answer answer;
      try {
        answer = client.send("POST", events(ws), headers, body);
      } catch (UncheckedIOException | IllegalStateException gone) {
        sent.add(new Sent(ws, eventId, headers, body, Optional.empty()));
        return;
      }
      sent.add(new Sent(ws, eventId, headers, body, Optional.of(answer)));
      if (answer.status() != 201) {
        return;
      }
      cursor =
          new ChainCursor(
              Long.parseLong(answer.header("Jarvis-WorkSession-Revision").orElseThrow()),
              answer.header("Jarvis-Last-Event-Hash").orElseThrow());
      if (n + 1 == ACKNOWLEDGED_PER_SESSION) {
        acknowledged.countDown();
      }
    }
  }

  /** What each WorkSession was answered so far, for a failure message. */
  private static Map<String, List<String>> statuses(ConcurrentLinkedQueue<Sent> sent) {
    return sent.stream()
        .collect(
            Collectors.groupingBy(
                Sent::workSessionId,
                TreeMap::new,
                Collectors.mapping(
                    r ->
                        r.answer()
                            .map(a -> a.status() == 201 ? "201" : a.status() + " " + a.text())
                            .orElse("no answer"),
                    Collectors.toList())));
  }

  private static String ws(int s) {
    return "ws-crash-" + s;
  }

  private static String events(String ws) {
    return "/work-sessions/" + ws + "/events";
  }

  private static Process start(String store, Path policy) throws Exception {
    Process process =
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
    return process;
  }

  /** The URI the process prints once it serves. */
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
