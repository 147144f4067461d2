package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.store.jdbc.JdbcHostStores;
import dev.jarvis.store.jdbc.JdbcStoreSettings;
import dev.jarvis.store.tck.testing.PostgresTestSchema;
import dev.jarvis.store.tck.testing.Together;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two reference hosts on one PostgreSQL database behave as one host: racing writers across both get
 * one winner and a linear chain, a key retried on the other instance has one effect and one answer,
 * and both show the same cursor. Each test in a schema of its own.
 */
class TwoInstancesOnOnePostgresTest {

  private static final int WRITERS = 8;

  private PostgresTestSchema schema;
  private TestHost a;
  private TestHost b;
  private final ExecutorService pool = Executors.newFixedThreadPool(WRITERS);

  @BeforeEach
  void start() throws Exception {
    schema = PostgresTestSchema.create("jarvis_two");
    a = TestHost.started(s -> s.stores(open()));
    b = TestHost.started(s -> s.stores(open()));
    assertEquals(201, a.createSession(Payloads.WS).status());
  }

  private JdbcHostStores open() {
    return JdbcHostStores.open(
        JdbcStoreSettings.of(schema.url()).withSchema(schema.name()).withPoolSize(4));
  }

  @AfterEach
  void stop() throws Exception {
    pool.shutdownNow();
    if (a != null) {
      a.close();
    }
    if (b != null) {
      b.close();
    }
    // Without a test database create() failed with the message that says so; keep it visible.
    if (schema != null) {
      schema.close();
    }
  }

  private TestHost instance(int i) {
    return i % 2 == 0 ? a : b;
  }

  @Test
  void writersRacingOneRevisionAcrossBothInstancesHaveOneWinnerAndBuildOneLinearChain()
      throws Exception {
    ChainCursor start = a.cursor();
    List<Callable<Answer>> race = new ArrayList<>();
    for (int i = 0; i < WRITERS; i++) {
      TestHost host = instance(i);
      String id = "event-race-" + i;
      race.add(() -> append(host, start, id));
    }
    List<Answer> answers = together(race);
    assertEquals(1, answers.stream().filter(x -> x.status() == 201).count());
    answers.stream()
        .filter(x -> x.status() != 201)
        .forEach(x -> assertEquals("stale_work_session_revision", x.errorId()));

    int perWriter = 4;
    List<Callable<Answer>> contended = new ArrayList<>();
    for (int i = 0; i < WRITERS; i++) {
      TestHost host = instance(i);
      int writer = i;
      contended.add(
          () -> {
            Answer last = null;
            for (int done = 0; done < perWriter; ) {
              last = append(host, host.cursor(), "event-" + writer + "-" + done);
              if (last.status() == 201) {
                done++;
              }
            }
            return last;
          });
    }
    together(contended);

    List<JsonNode> events = a.host.host().config().stores().sessions().events(Payloads.WS);
    assertEquals(2 + WRITERS * perWriter, events.size());
    assertEquals(Optional.empty(), EventChain.verify(events));
    assertEquals(a.cursor(), b.cursor());
    assertEquals(events.size(), a.cursor().revision());
  }

  @Test
  void anEventCommittedOnOneInstanceReachesAStreamAndALongPollOnTheOther() throws Exception {
    java.util.Iterator<String> lines =
        EventStreamOverHttpTest.subscribe(b, Payloads.AGENT).iterator();
    assertEquals(
        1,
        EventStreamOverHttpTest.nextEvent(lines)
            .get(10, java.util.concurrent.TimeUnit.SECONDS)
            .path("sequence")
            .asLong());
    java.util.concurrent.CompletableFuture<JsonNode> streamed =
        EventStreamOverHttpTest.nextEvent(lines);
    java.util.concurrent.CompletableFuture<java.net.http.HttpResponse<String>> poll =
        b.http.sendAsync(
            EventStreamOverHttpTest.get(b, events() + "?after=1&wait=30", Payloads.HUMAN).build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
    assertEquals(201, append(a, a.cursor(), "event-across").status());
    assertEquals(
        "event-across",
        streamed.get(10, java.util.concurrent.TimeUnit.SECONDS).path("id").asText());
    java.net.http.HttpResponse<String> page = poll.get(10, java.util.concurrent.TimeUnit.SECONDS);
    assertEquals(
        "event-across",
        dev.jarvis.core.JarvisJson.mapper()
            .readTree(page.body())
            .path("events")
            .path(0)
            .path("id")
            .asText());
  }

  @Test
  void aKeySentToOneInstanceAndRetriedOnTheOtherHasOneEffectAndTheSameAnswer() {
    ChainCursor cursor = a.cursor();
    Map<String, String> headers = a.scoped(Payloads.HUMAN, cursor);
    String body = EventChain.next(cursor, note("event-once")).toString();
    Answer first = a.send("POST", events(), headers, body);
    assertEquals(201, first.status(), first.text());
    Answer retried = b.send("POST", events(), headers, body);
    assertEquals(201, retried.status(), retried.text());
    assertArrayEquals(first.bytes(), retried.bytes());
    assertEquals(first.header("Jarvis-Last-Event-Hash"), retried.header("Jarvis-Last-Event-Hash"));
    assertEquals(2, b.cursor().revision());
    assertEquals(a.cursor(), b.cursor());
  }

  @Test
  void oneKeySentToBothInstancesAtOnceHasOneEffectAndOneAnswer() throws Exception {
    ChainCursor cursor = a.cursor();
    Map<String, String> headers = a.scoped(Payloads.HUMAN, cursor);
    String body = EventChain.next(cursor, note("event-twice")).toString();
    List<Callable<Answer>> both = new ArrayList<>();
    for (int i = 0; i < WRITERS; i++) {
      TestHost host = instance(i);
      both.add(() -> host.send("POST", events(), headers, body));
    }
    List<Answer> answers = together(both);
    for (Answer answer : answers) {
      assertEquals(201, answer.status(), answer.text());
      assertArrayEquals(answers.get(0).bytes(), answer.bytes());
    }
    assertEquals(2, a.cursor().revision());
    assertEquals(a.cursor(), b.cursor());
  }

  private static String events() {
    return "/work-sessions/" + Payloads.WS + "/events";
  }

  private static ObjectNode note(String id) {
    return Payloads.event(id, "note.added", Payloads.HUMAN);
  }

  private static Answer append(TestHost host, ChainCursor at, String id) {
    return host.send(
        "POST",
        events(),
        host.scoped(Payloads.HUMAN, at),
        EventChain.next(at, note(id)).toString());
  }

  private <T> List<T> together(List<Callable<T>> tasks) throws Exception {
    return Together.run(pool, tasks);
  }
}
