package dev.jarvis.host;

import static dev.jarvis.host.KitHost.AGENT;
import static dev.jarvis.host.KitHost.HUMAN;
import static dev.jarvis.host.KitHost.OUTSIDER;
import static dev.jarvis.host.KitHost.WS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.eventlog.EventStream;
import dev.jarvis.core.headers.JarvisHeaders;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code event-stream} capability in process, through {@link ProtocolHost#answerHeld} as the
 * bindings call it: a stream carries a WorkSession's events as they are committed and resumes from
 * {@code Last-Event-ID}; a long poll answers as soon as an event exists; both are the page read's
 * checks (members only, one refusal), bounded per Actor, woken by the host's own events (a
 * Request's expiry), cut when the subscriber stops reading, and ended on close.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
@Timeout(30)
class LiveEventLogTest {

  private static final String EVENTS = "/work-sessions/" + WS + "/events";
  private static final long BOUND_SECONDS = 10;

  private static KitHost streaming(UnaryOperator<EventStreamLimits> limits) {
    KitHost kit =
        new KitHost(
            HostAuth.anyCaller(),
            "",
            b ->
                b.capability(HostConfig.EVENT_STREAM)
                    .streams(limits.apply(EventStreamLimits.DEFAULTS)));
    kit.createSession(WS);
    return kit;
  }

  private static KitHost streaming() {
    return streaming(l -> l);
  }

  /** A host whose streams cut a write stalled past {@code writeTimeout}. */
  private static KitHost cuttingAfter(Duration writeTimeout) {
    return streaming(l -> l.withWriteTimeout(writeTimeout));
  }

  private static Map<String, String> headers(String actor, String... more) {
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.put(JarvisHeaders.PROTOCOL_VERSION, "v0.1");
    headers.put(JarvisHeaders.ACTOR_ID, actor);
    for (int i = 0; i < more.length; i += 2) {
      headers.put(more[i], more[i + 1]);
    }
    return headers;
  }

  private static HeldAnswer held(KitHost kit, String path, String query, Map<String, String> h) {
    return kit.host.answerHeld(
        "GET", path, query, name -> Optional.ofNullable(h.get(name)), new byte[0]);
  }

  private static HeldAnswer subscribe(KitHost kit, String actor, String... more) {
    String[] all = new String[more.length + 2];
    all[0] = "Accept";
    all[1] = EventStream.MEDIA_TYPE;
    System.arraycopy(more, 0, all, 2, more.length);
    return held(kit, EVENTS, "", headers(actor, all));
  }

  /** A subscriber: runs the stream on a thread of its own, and hands over what it reads. */
  private static final class Subscriber extends OutputStream {
    final BlockingQueue<EventStream.Reader.Item> items = new LinkedBlockingQueue<>();
    final CompletableFuture<String> ended = new CompletableFuture<>();
    private final EventStream.Reader reader = new EventStream.Reader();
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    static Subscriber run(HeldAnswer answer) {
      LiveStream stream = assertInstanceOf(HeldAnswer.Streaming.class, answer).stream();
      Subscriber s = new Subscriber();
      Thread t = new Thread(() -> s.ended.complete(stream.run(s, () -> {})), "subscriber");
      t.setDaemon(true);
      t.start();
      return s;
    }

    @Override
    public void write(int b) {
      if (b == '\n') {
        reader.line(line.toString(StandardCharsets.UTF_8)).ifPresent(items::add);
        line.reset();
      } else {
        line.write(b);
      }
    }

    /** The next event frame's data, skipping comments. */
    JsonNode nextEvent() throws Exception {
      while (true) {
        EventStream.Reader.Item item = items.poll(BOUND_SECONDS, TimeUnit.SECONDS);
        if (item == null) {
          throw new AssertionError("no frame within " + BOUND_SECONDS + " s");
        }
        if (item instanceof EventStream.Reader.Item.Frame frame) {
          JsonNode event = JarvisJson.mapper().readTree(frame.data());
          assertEquals(frame.id().orElseThrow(), event.path("sequence").asText());
          return event;
        }
      }
    }

    /** The next comment, skipping nothing. */
    String nextComment() throws Exception {
      EventStream.Reader.Item item = items.poll(BOUND_SECONDS, TimeUnit.SECONDS);
      return assertInstanceOf(EventStream.Reader.Item.Comment.class, item).text();
    }
  }

  @Test
  void a_stream_carries_the_events_so_far_and_then_each_one_as_it_is_committed() throws Exception {
    KitHost kit = streaming();
    Subscriber agent = Subscriber.run(subscribe(kit, AGENT));
    assertEquals(1, agent.nextEvent().path("sequence").asLong());
    kit.pendingFetch(WS, "pd-1", "req-1");
    assertEquals("policy_decision.recorded", agent.nextEvent().path("type").asText());
    JsonNode request = agent.nextEvent();
    assertEquals(3, request.path("sequence").asLong());
    assertEquals(
        kit.host.config().stores().sessions().events(WS).get(2).toString(),
        request.toString(),
        "exactly as stored");
    kit.host.close();
    assertEquals("shutdown", agent.ended.get(BOUND_SECONDS, TimeUnit.SECONDS));
  }

  @Test
  void a_reconnection_resumes_after_its_last_event_id_whatever_the_query_says() throws Exception {
    KitHost kit = streaming();
    kit.pendingFetch(WS, "pd-1", "req-1");
    Subscriber again =
        Subscriber.run(
            held(
                kit,
                EVENTS,
                "after=0",
                headers(AGENT, "Accept", EventStream.MEDIA_TYPE, EventStream.LAST_EVENT_ID, "2")));
    assertEquals(3, again.nextEvent().path("sequence").asLong());
    kit.host.close();
  }

  @Test
  void a_malformed_last_event_id_is_refused_before_any_stream_starts() {
    KitHost kit = streaming();
    HeldAnswer answer = subscribe(kit, AGENT, EventStream.LAST_EVENT_ID, "02");
    StoredResponse refused = assertInstanceOf(HeldAnswer.Answered.class, answer).response();
    assertEquals(400, refused.status());
    assertEquals("/Last-Event-ID", KitHost.answerOf(refused).body().path("field").asText());
    assertEquals(0, kit.host.openStreams());
  }

  @Test
  void an_outsider_gets_the_one_refusal_whether_or_not_the_work_session_exists() {
    KitHost kit = streaming();
    StoredResponse outsider =
        assertInstanceOf(HeldAnswer.Answered.class, subscribe(kit, OUTSIDER)).response();
    StoredResponse unknown =
        assertInstanceOf(
                HeldAnswer.Answered.class,
                held(
                    kit,
                    "/work-sessions/ws-nope/events",
                    "",
                    headers(AGENT, "Accept", EventStream.MEDIA_TYPE)))
            .response();
    assertEquals("unauthorized_actor", KitHost.answerOf(outsider).errorId());
    assertEquals(outsider.status(), unknown.status());
    assertEquals(
        KitHost.answerOf(outsider).body().path("reason"),
        KitHost.answerOf(unknown).body().path("reason"));
    // Positive control: a member is streamed to.
    assertInstanceOf(HeldAnswer.Streaming.class, subscribe(kit, AGENT));
    kit.host.close();
  }

  @Test
  void one_stream_past_the_per_actor_limit_is_refused_naming_the_limit_and_the_place_comes_back()
      throws Exception {
    KitHost kit = streaming(l -> l.withSubscribers(1, 10));
    LiveStream first = assertInstanceOf(HeldAnswer.Streaming.class, subscribe(kit, AGENT)).stream();
    StoredResponse second =
        assertInstanceOf(HeldAnswer.Answered.class, subscribe(kit, AGENT)).response();
    assertEquals(429, second.status());
    assertEquals("unauthorized_actor", KitHost.answerOf(second).errorId());
    assertTrue(
        KitHost.answerOf(second).body().path("reason").asText().contains("(1)"),
        KitHost.answerOf(second).body().toString());
    assertInstanceOf(HeldAnswer.Streaming.class, subscribe(kit, HUMAN), "another Actor's own");
    first.close();
    assertInstanceOf(HeldAnswer.Streaming.class, subscribe(kit, AGENT), "the place came back");
  }

  @Test
  void an_idle_stream_carries_heartbeats_then_ends_at_its_idle_timeout() throws Exception {
    KitHost kit =
        streaming(
            l -> l.withHeartbeat(Duration.ofMillis(20)).withIdleTimeout(Duration.ofMillis(300)));
    Subscriber agent = Subscriber.run(subscribe(kit, AGENT));
    agent.nextEvent();
    assertEquals("heartbeat", agent.nextComment());
    assertEquals("idle", agent.ended.get(BOUND_SECONDS, TimeUnit.SECONDS));
  }

  @Test
  void a_request_that_expires_while_watched_reaches_the_stream_without_any_member_call()
      throws Exception {
    KitHost kit = streaming();
    kit.pendingFetch(WS, "pd-1", "req-1");
    Subscriber agent = Subscriber.run(subscribe(kit, AGENT, EventStream.LAST_EVENT_ID, "3"));
    kit.clock.advance(Duration.ofMinutes(31));
    assertEquals(1, kit.host.expireDueRequests());
    assertEquals("request.expired", agent.nextEvent().path("type").asText());
    kit.host.close();
  }

  @Test
  void a_subscriber_that_stops_reading_is_cut_while_another_keeps_up() throws Exception {
    KitHost kit = cuttingAfter(Duration.ofMillis(200));
    CountDownLatch aborted = new CountDownLatch(1);
    OutputStream stuck =
        new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            try {
              aborted.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            throw new InterruptedIOException("connection closed");
          }
        };
    LiveStream slow = assertInstanceOf(HeldAnswer.Streaming.class, subscribe(kit, HUMAN)).stream();
    CompletableFuture<String> slowEnded =
        CompletableFuture.supplyAsync(() -> slow.run(stuck, aborted::countDown));
    Subscriber keeping = Subscriber.run(subscribe(kit, AGENT));
    keeping.nextEvent();
    assertEquals("cut", slowEnded.get(BOUND_SECONDS, TimeUnit.SECONDS));
    kit.pendingFetch(WS, "pd-1", "req-1");
    assertEquals(2, keeping.nextEvent().path("sequence").asLong());
    kit.host.close();
  }

  @Test
  void a_non_blocking_subscriber_that_stops_reading_is_cut_while_another_keeps_up()
      throws Exception {
    KitHost kit = cuttingAfter(Duration.ofMillis(200));
    // A sink whose first write never completes: the subscriber's socket stopped taking bytes.
    CompletableFuture<Void> aborted = new CompletableFuture<>();
    List<byte[]> handed = new java.util.concurrent.CopyOnWriteArrayList<>();
    EventSink stuck =
        new EventSink() {
          @Override
          public void write(byte[] bytes, Written outcome) {
            handed.add(bytes);
          }

          @Override
          public void end() {
            throw new AssertionError("a cut stream is aborted, not ended");
          }

          @Override
          public void abort() {
            aborted.complete(null);
          }
        };
    LiveStream slow = assertInstanceOf(HeldAnswer.Streaming.class, subscribe(kit, HUMAN)).stream();
    CompletableFuture<String> slowEnded = slow.start(stuck).toCompletableFuture();
    Subscriber keeping = Subscriber.run(subscribe(kit, AGENT));
    keeping.nextEvent();
    assertEquals("cut", slowEnded.get(BOUND_SECONDS, TimeUnit.SECONDS));
    aborted.get(BOUND_SECONDS, TimeUnit.SECONDS);
    assertEquals(1, handed.size(), "one batch in flight, nothing queued behind it");
    assertEquals(1, kit.host.openStreams(), "the cut stream's place came back");
    kit.pendingFetch(WS, "pd-1", "req-1");
    assertEquals(2, keeping.nextEvent().path("sequence").asLong());
    assertEquals(1, handed.size());
    kit.host.close();
  }

  @Test
  void a_long_poll_answers_as_soon_as_an_event_follows_its_after() throws Exception {
    KitHost kit = streaming();
    // The poll waits on no thread: answerHeld returns at once, and an append answers it.
    HeldAnswer.Polling poll =
        assertInstanceOf(
            HeldAnswer.Polling.class, held(kit, EVENTS, "after=1&wait=30", headers(AGENT)));
    assertEquals(1, kit.host.openStreams());
    kit.pendingFetch(WS, "pd-1", "req-1");
    StoredResponse page = poll.answer().toCompletableFuture().get(BOUND_SECONDS, TimeUnit.SECONDS);
    assertEquals(200, page.status());
    JsonNode events = KitHost.answerOf(page).body().path("events");
    assertEquals(2, events.path(0).path("sequence").asLong());
  }

  @Test
  void a_long_poll_that_nothing_answers_ends_with_the_empty_page_after_its_wait() throws Exception {
    KitHost kit = streaming();
    StoredResponse page =
        assertInstanceOf(
                HeldAnswer.Polling.class, held(kit, EVENTS, "after=1&wait=1", headers(AGENT)))
            .answer()
            .toCompletableFuture()
            .get(BOUND_SECONDS, TimeUnit.SECONDS);
    assertEquals(200, page.status());
    assertEquals(0, KitHost.answerOf(page).body().path("events").size());
    assertFalse(KitHost.answerOf(page).body().path("has_more").asBoolean());
    assertEquals(0, kit.host.openStreams());
  }

  @Test
  void a_wait_beyond_the_maximum_is_refused_at_wait() {
    KitHost kit = streaming();
    StoredResponse refused =
        assertInstanceOf(HeldAnswer.Answered.class, held(kit, EVENTS, "wait=31", headers(AGENT)))
            .response();
    assertEquals(400, refused.status());
    assertEquals("/wait", KitHost.answerOf(refused).body().path("field").asText());
    // The same through the plain entry, as a binding that checks first (JAX-RS) reaches it.
    Map<String, String> h = headers(AGENT);
    StoredResponse plain =
        kit.host.answer(
            "GET", EVENTS, "wait=31", name -> Optional.ofNullable(h.get(name)), new byte[0]);
    assertEquals(400, plain.status());
    assertEquals("/wait", KitHost.answerOf(plain).body().path("field").asText());
  }

  @Test
  void a_host_that_does_not_declare_event_stream_holds_nothing_and_answers_the_page() {
    KitHost kit = new KitHost();
    kit.createSession(WS);
    Map<String, String> h = headers(AGENT, "Accept", EventStream.MEDIA_TYPE);
    assertFalse(kit.host.holds("GET", EVENTS, "wait=5", name -> Optional.ofNullable(h.get(name))));
    StoredResponse page =
        assertInstanceOf(HeldAnswer.Answered.class, held(kit, EVENTS, "", h)).response();
    assertEquals(200, page.status());
    assertTrue(page.headers().get("Content-Type").startsWith("application/json"));
  }
}
