package dev.jarvis.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.samples.SampleRecords;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/** A fixed clock, counting id suppliers, and a registered pair of Workers and Actors. */
final class StubWorld {

  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-06-12T18:00:00Z"), ZoneOffset.UTC);
  static final String NOW = RequestTimestamp.format(CLOCK.instant());
  static final String HUMAN_WORKER = "worker-human-1";
  static final String AGENT_WORKER = "worker-agent-1";
  static final String HUMAN = "actor-human-1";
  static final String AGENT = "actor-agent-1";
  static final String SESSION = "ws-1";
  static final String ADMIN = JarvisHostStub.ADMIN_ACTOR_ID;

  private StubWorld() {}

  /** Ids {@code prefix-1}, {@code prefix-2}, … */
  static Supplier<String> counting(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return () -> prefix + "-" + n.incrementAndGet();
  }

  /** A stub on the fixed clock with counting host ids. */
  static JarvisHostStub stub() {
    // These tests send bad requests on purpose and assert the refusals themselves.
    return JarvisHostStub.builder()
        .clock(CLOCK)
        .ids(counting("host"))
        .failOnReceivedViolations(false)
        .build();
  }

  /** Registers both Workers and Actors, then creates {@link #SESSION}; returns its cursor. */
  static ChainCursor sessionAtRevisionOne(StubCalls calls) {
    registered(
        calls.call(
            "registerWorker",
            HUMAN_WORKER,
            ADMIN,
            null,
            SampleRecords.worker(HUMAN_WORKER, "human")));
    registered(
        calls.call(
            "registerWorker",
            AGENT_WORKER,
            ADMIN,
            null,
            SampleRecords.worker(AGENT_WORKER, "agent")));
    registered(
        calls.call(
            "registerActor",
            HUMAN,
            ADMIN,
            null,
            SampleRecords.actor(HUMAN, HUMAN_WORKER, "human", NOW)));
    registered(
        calls.call(
            "registerActor",
            AGENT,
            ADMIN,
            null,
            SampleRecords.actor(AGENT, AGENT_WORKER, "agent", NOW)));
    StubCalls.Answer created =
        calls.call(
            "createWorkSession",
            null,
            HUMAN,
            ChainCursor.GENESIS,
            SampleRecords.workSession(SESSION, HUMAN, HUMAN_WORKER, AGENT_WORKER, NOW));
    registered(created);
    return cursorOf(created.body());
  }

  private static void registered(StubCalls.Answer answer) {
    if (answer.status() / 100 != 2) {
      throw new AssertionError("set-up call refused: " + answer.body());
    }
  }

  static ChainCursor cursorOf(JsonNode session) {
    return new ChainCursor(
        session.path("revision").asLong(), session.path("last_event_hash").asText());
  }
}
