package dev.jarvis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.eventlog.EventStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code client.subscribe} against a host on loopback whose stream arrives over time ({@link
 * StreamHost}): frames verified and delivered in chain order, resumption with {@code Last-Event-ID}
 * after a drop, an end comment or a silence, tampered events, demand and cancellation. The client's
 * own waits (back-off) are recorded and pass at once; only reads of the network take real time.
 */
class SubscribeTest {

  static final String WS = ClientFixture.SESSION;
  static final String EVENTS = "/work-sessions/" + WS + "/events";
  static final String STREAMS = "event-log, event-stream";

  final StreamHost host;
  final TestClock clock = new TestClock(ClientFixture.START);
  final List<Duration> waits = new CopyOnWriteArrayList<>();
  final List<JsonNode> chain = EventPageShapesTest.chain(6);
  JarvisClient client;

  SubscribeTest() throws IOException {
    host = new StreamHost();
  }

  JarvisClient client(UnaryOperator<JarvisClientOptions.Builder> more) {
    client =
        JarvisClient.create(
            more.apply(
                    JarvisClientOptions.builder()
                        .baseUri(host.baseUri())
                        .actorId(ClientFixture.ACTOR)
                        .hostAuth("Bearer test-token")
                        .clock(clock)
                        .jitter(() -> 0.0)
                        .sleeper(
                            d -> {
                              waits.add(d);
                              clock.advance(d);
                            }))
                .build());
    return client;
  }

  JarvisClient client() {
    return client(UnaryOperator.identity());
  }

  @AfterEach
  void close() {
    host.close();
    if (client != null) {
      client.close();
    }
  }

  List<JsonNode> events(int from, int to) {
    return chain.subList(from - 1, to);
  }

  Collecting subscribe(Collecting subscriber) {
    client.subscribe(WS).subscribe(subscriber);
    return subscriber;
  }

  @Test
  void framesArriveInChainOrderEachVerifiedThroughTheReadPipeline() throws Exception {
    host.on(EVENTS, (answer, i) -> answer.stream(STREAMS).frames(events(1, 3)).holdOpen());
    client();

    Collecting subscriber = subscribe(Collecting.unbounded());

    assertEquals(List.of(1L, 2L, 3L), subscriber.take(3));
    StreamHost.Received asked = host.to(EVENTS).get(0);
    assertTrue(asked.header("Accept").startsWith(EventStream.MEDIA_TYPE), asked.header("Accept"));
    assertEquals("Bearer test-token", asked.header("Authorization"));
    assertEquals(ClientFixture.ACTOR, asked.header("Jarvis-Actor-Id"));
    assertEquals("v0.1", asked.header("Jarvis-Protocol-Version"));
    assertEquals("event-log", asked.header("Jarvis-Required-Capabilities"));
    assertTrue(asked.query().startsWith("after=0"), asked.query());
    assertNull(asked.header(EventStream.LAST_EVENT_ID), "a first connection names no event");
    subscriber.cancel();
    assertTrue(subscriber.stopped());
  }

  @Test
  void aDroppedConnectionIsResumedAfterTheLastVerifiedEventWithNothingLostOrDoubled()
      throws Exception {
    host.on(
        EVENTS,
        (answer, i) -> {
          if (i == 0) {
            answer.stream(STREAMS).frames(events(1, 2)); // then the connection drops
          } else {
            answer.stream(STREAMS).frames(events(3, 4)).holdOpen();
          }
        });
    client();

    Collecting subscriber = subscribe(Collecting.unbounded());

    assertEquals(List.of(1L, 2L, 3L, 4L), subscriber.take(4));
    StreamHost.Received resumed = host.to(EVENTS).get(1);
    assertEquals("2", resumed.header(EventStream.LAST_EVENT_ID));
    assertTrue(resumed.query().startsWith("after=2"), resumed.query());
    assertEquals(Duration.ofMillis(200), waits.get(0), "the retry policy's first back-off");
    subscriber.cancel();
    assertTrue(subscriber.stopped());
    assertEquals(4, subscriber.all.size(), "nothing doubled");
  }

  @Test
  void aStreamTheHostEndsIsResumedLikeADroppedOne() throws Exception {
    host.on(
        EVENTS,
        (answer, i) -> {
          if (i == 0) {
            answer.stream(STREAMS).frames(events(1, 1)).raw(": end idle\n\n").holdOpen();
          } else {
            answer.stream(STREAMS).frames(events(2, 2)).holdOpen();
          }
        });
    client();

    Collecting subscriber = subscribe(Collecting.unbounded());

    assertEquals(List.of(1L, 2L), subscriber.take(2));
    assertEquals("1", host.to(EVENTS).get(1).header(EventStream.LAST_EVENT_ID));
    subscriber.cancel();
  }

  @Test
  void aSilentStreamIsReconnectedOnceTheStreamReadTimeoutPasses() throws Exception {
    host.on(
        EVENTS,
        (answer, i) -> {
          if (i == 0) {
            answer.stream(STREAMS).frames(events(1, 1)).silent(); // not even a heartbeat
          } else {
            answer.stream(STREAMS).frames(events(2, 2)).holdOpen();
          }
        });
    client(options -> options.streamReadTimeout(Duration.ofMillis(300)));

    Collecting subscriber = subscribe(Collecting.unbounded());

    assertEquals(List.of(1L, 2L), subscriber.take(2));
    assertEquals("1", host.to(EVENTS).get(1).header(EventStream.LAST_EVENT_ID));
    subscriber.cancel();
    assertTrue(subscriber.stopped());
  }

  @Test
  void aStreamStalledHalfwayThroughALineIsReconnectedToo() throws Exception {
    host.on(
        EVENTS,
        (answer, i) -> {
          if (i == 0) {
            answer.stream(STREAMS).frames(events(1, 1)).raw("id: 2\ndata: {\"id\":").silent();
          } else {
            answer.stream(STREAMS).frames(events(2, 3)).holdOpen();
          }
        });
    client(options -> options.streamReadTimeout(Duration.ofMillis(300)));

    Collecting subscriber = subscribe(Collecting.unbounded());

    assertEquals(List.of(1L, 2L, 3L), subscriber.take(3));
    assertEquals("1", host.to(EVENTS).get(1).header(EventStream.LAST_EVENT_ID));
    subscriber.cancel();
    assertTrue(subscriber.stopped());
  }

  @Test
  void theStreamReadTimeoutIsAnOptionOfItsOwnDefaulting45Seconds() {
    JarvisClientOptions options =
        JarvisClientOptions.builder().baseUri("http://127.0.0.1:1").actorId("a").build();
    assertEquals(Duration.ofSeconds(45), options.streamReadTimeout());
    assertEquals(
        Duration.ofSeconds(3),
        options.toBuilder().streamReadTimeout(Duration.ofSeconds(3)).build().streamReadTimeout());
  }

  /** How a host may tamper with event 2. */
  enum Tampering {
    BAD_HASH("/data/event_hash") {
      @Override
      JsonNode second(List<JsonNode> chain) {
        ObjectNode event = chain.get(1).deepCopy();
        event.put("id", "changed-after-hashing");
        return event;
      }
    },
    WRONG_PREVIOUS_HASH("/data/previous_hash") {
      @Override
      JsonNode second(List<JsonNode> chain) {
        ChainCursor elsewhere = new ChainCursor(1, "sha256:" + "0".repeat(64));
        return EventChain.next(elsewhere, chain.get(1));
      }
    },
    ANOTHER_WORK_SESSION("/data/work_session_id") {
      @Override
      JsonNode second(List<JsonNode> chain) {
        ObjectNode draft = chain.get(1).deepCopy();
        draft.put("work_session_id", "ws-someone-else");
        ChainCursor after1 = new ChainCursor(1, chain.get(0).path("event_hash").asText());
        return EventChain.next(after1, draft);
      }
    };

    final String field;

    Tampering(String field) {
      this.field = field;
    }

    abstract JsonNode second(List<JsonNode> chain);
  }

  @ParameterizedTest
  @EnumSource(Tampering.class)
  void aTamperedEventEndsTheSubscriptionWithAnInvalidResponse(Tampering tampering)
      throws Exception {
    List<JsonNode> served = new ArrayList<>(events(1, 3));
    served.set(1, tampering.second(chain));
    host.on(EVENTS, (answer, i) -> answer.stream(STREAMS).frames(served).holdOpen());
    client();

    Collecting subscriber = subscribe(Collecting.unbounded());

    JarvisInvalidResponseException off =
        assertInstanceOf(JarvisInvalidResponseException.class, subscriber.failure());
    assertEquals(tampering.field, off.field(), off.getMessage());
    assertTrue(subscriber.stopped());
    assertEquals(List.of(1L), subscriber.take(1), "only the event before the break");
    assertTrue(subscriber.events.isEmpty());
    assertTrue(
        host.clientGone.await(Collecting.BOUND_SECONDS, TimeUnit.SECONDS),
        "the connection is closed");
  }

  @Test
  void aHostWithoutEventStreamIsPagedWithTheAwaitPolicysWaits() throws Exception {
    host.on(
        EVENTS,
        (answer, i) -> {
          // A host of the event log alone answers the page read, whatever Accept asks for.
          List<JsonNode> page = i == 0 ? events(1, 2) : i == 2 ? events(3, 3) : List.of();
          answer.json(200, "event-log", page(page));
        });
    client();

    Collecting subscriber = subscribe(Collecting.unbounded());

    assertEquals(List.of(1L, 2L, 3L), subscriber.take(3));
    subscriber.cancel();
    assertTrue(subscriber.stopped());
    List<StreamHost.Received> reads = host.to(EVENTS);
    assertTrue(reads.get(1).query().startsWith("after=2"), reads.get(1).query());
    assertTrue(reads.stream().noneMatch(r -> r.query().contains("wait=")), "no long poll");
    assertEquals(AwaitPolicy.DEFAULT.poll(1), waits.get(0), "a quiet page waits as polls do");
  }

  @Test
  void aHostDeclaringEventStreamThatAnswersJsonIsLongPolled() throws Exception {
    host.on(
        EVENTS,
        (answer, i) -> answer.json(200, STREAMS, page(i == 0 ? events(1, 1) : events(2, 2))));
    client(options -> options.attemptTimeout(Duration.ofSeconds(30)));

    Collecting subscriber = subscribe(Collecting.unbounded());

    assertEquals(List.of(1L, 2L), subscriber.take(2));
    subscriber.cancel();
    StreamHost.Received second = host.to(EVENTS).get(1);
    assertEquals("after=1&limit=500&wait=25", second.query());
  }

  @Test
  void cancellingClosesTheConnectionAndLeavesNoThreadRunning() throws Exception {
    host.on(EVENTS, (answer, i) -> answer.stream(STREAMS).frames(events(1, 1)).holdOpen());
    client();
    Collecting subscriber = subscribe(Collecting.unbounded());
    assertEquals(List.of(1L), subscriber.take(1));

    subscriber.cancel();

    assertTrue(
        host.clientGone.await(Collecting.BOUND_SECONDS, TimeUnit.SECONDS),
        "the host sees the connection closed");
    assertTrue(subscriber.stopped(), "the subscription's thread has ended");
    assertEquals(1, host.to(EVENTS).size(), "and it does not reconnect");
  }

  @Test
  void cancellingBeforeTheStreamAnswersClosesTheStreamThatArrivesAfter() throws Exception {
    java.util.concurrent.CountDownLatch asked = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch cancelled = new java.util.concurrent.CountDownLatch(1);
    host.on(
        EVENTS,
        (answer, i) -> {
          asked.countDown();
          cancelled.await(Collecting.BOUND_SECONDS, TimeUnit.SECONDS);
          answer.stream(STREAMS).frames(events(1, 1)).holdOpen();
        });
    client();
    Collecting subscriber = subscribe(Collecting.unbounded());
    assertTrue(asked.await(Collecting.BOUND_SECONDS, TimeUnit.SECONDS));

    subscriber.cancel();
    assertTrue(subscriber.stopped());
    cancelled.countDown();

    assertTrue(
        host.clientGone.await(Collecting.BOUND_SECONDS, TimeUnit.SECONDS),
        "the answer that came after the cancel is not left connected");
    assertTrue(subscriber.all.isEmpty());
  }

  @Test
  void aSubscriberGetsExactlyAsManyEventsAsItAskedFor() throws Exception {
    host.on(EVENTS, (answer, i) -> answer.stream(STREAMS).frames(events(1, 5)).holdOpen());
    client();
    Collecting subscriber = subscribe(new Collecting(1));

    assertEquals(List.of(1L), subscriber.take(1));
    subscriber.request(2);
    assertEquals(List.of(2L, 3L), subscriber.take(2));
    subscriber.cancel();

    assertTrue(subscriber.stopped());
    assertEquals(List.of(), subscriber.beyondDemand);
    assertEquals(3, subscriber.all.size(), "request(1) then request(2): three, no more");
  }

  @Test
  void askingForNoEventsEndsTheSubscriptionAsReactiveStreamsSays() throws Exception {
    host.on(EVENTS, (answer, i) -> answer.stream(STREAMS).frames(events(1, 1)).holdOpen());
    client();
    Collecting subscriber = subscribe(new Collecting(0));

    subscriber.subscription.join().request(0);

    assertInstanceOf(IllegalArgumentException.class, subscriber.failure());
    assertTrue(subscriber.stopped());
    assertTrue(subscriber.all.isEmpty());
  }

  @Test
  void aStartAfterSequenceNLearnsEventNsHashFirst() throws Exception {
    host.on(
        EVENTS,
        (answer, i) -> {
          if (i == 0) {
            answer.json(200, STREAMS, page(events(3, 3))); // after=2&limit=1
          } else {
            answer.stream(STREAMS).frames(events(4, 5)).holdOpen();
          }
        });
    client();

    Collecting subscriber = Collecting.unbounded();
    client.subscribe(WS, 3).subscribe(subscriber);

    assertEquals(List.of(4L, 5L), subscriber.take(2));
    assertEquals("after=2&limit=1", host.to(EVENTS).get(0).query());
    assertTrue(host.to(EVENTS).get(1).query().startsWith("after=3"));
    subscriber.cancel();
  }

  @Test
  void theJdkRequestTimeoutBoundsOnlyTheResponseHeadersNeverTheBody() throws Exception {
    // Why the client has a stream read timeout of its own: HttpRequest.timeout stops counting once
    // the headers are in, so a body silent for longer still arrives.
    host.on(
        EVENTS,
        (answer, i) -> {
          answer.stream(STREAMS).frames(events(1, 1));
          host.release.await(600, TimeUnit.MILLISECONDS);
          answer.frames(events(2, 2));
        });
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    java.net.http.HttpResponse<java.util.stream.Stream<String>> response =
        http.send(
            java.net.http.HttpRequest.newBuilder(java.net.URI.create(host.baseUri() + EVENTS))
                .timeout(Duration.ofMillis(200))
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofLines());
    try (java.util.stream.Stream<String> lines = response.body()) {
      assertEquals(2, lines.filter(line -> line.startsWith("data:")).count());
    }
  }

  static String page(List<JsonNode> events) {
    return StreamHost.page(WS, events);
  }
}
