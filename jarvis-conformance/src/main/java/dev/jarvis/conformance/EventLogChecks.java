package dev.jarvis.conformance;

import static dev.jarvis.conformance.ExchangeRules.expectRefusal;
import static dev.jarvis.conformance.ExchangeRules.expectSuccess;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.eventlog.EventLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Live checks of the {@code event-log} capability, where the host declares it and serves its read
 * ({@link CapabilityChecks#eventLogServed}; otherwise each is skipped, saying why): paging by
 * sequence, order and hashes as appended, the cursor headers, the read's refusals.
 */
final class EventLogChecks {

  private EventLogChecks() {}

  /**
   * Runs the group; answers whether the host serves the read (false where it does not declare it).
   */
  static boolean run(CheckRunner runner, LiveHost live) {
    String group = EventLog.CAPABILITY;
    boolean served = CapabilityChecks.eventLogServed(runner, live);
    Runnable requireServed =
        () -> {
          if (!live.declares(EventLog.CAPABILITY)) {
            throw CapabilityChecks.notDeclared(EventLog.CAPABILITY);
          }
          if (!served) {
            throw new CheckSkipped(
                "the host declares event-log but does not serve its read: see the check '"
                    + CapabilityChecks.EVENT_LOG_SERVED
                    + "'");
          }
        };
    runner.check(
        group,
        "the event log pages a WorkSession's events in chain order, as appended, from genesis",
        () -> {
          requireServed.run();
          String session = live.newSession();
          ChainCursor at = live.cursor(session);
          List<String> appended = new ArrayList<>();
          for (int i = 0; i < 3; i++) {
            ObjectNode event = live.noteEvent(session, at);
            expectSuccess(live.appendEvent(session, at, event));
            at = at.advance(event.path("event_hash").asText());
            appended.add(event.path("event_hash").asText());
          }
          List<JsonNode> read = new ArrayList<>();
          long after = 0;
          boolean more = true;
          Exchange last = null;
          while (more) {
            last = live.events(session, "after=" + after + "&limit=2", live.human);
            JsonNode page = expectSuccess(last);
            if (page.path("events").size() > 2) {
              throw new CheckFailure("a page of limit 2 held " + page.path("events").size());
            }
            page.path("events").forEach(read::add);
            after += page.path("events").size();
            more = page.path("has_more").asBoolean();
            if (more && page.path("events").isEmpty()) {
              throw new CheckFailure("an empty page says more events follow");
            }
          }
          if (read.size() != at.revision()) {
            throw new CheckFailure(
                "the log holds " + read.size() + " events, the WorkSession is at " + at);
          }
          Optional<dev.jarvis.core.chain.ChainBreak> broken = EventChain.verify(read);
          if (broken.isPresent()) {
            throw new CheckFailure("the chain read back is broken: " + broken.get());
          }
          List<String> tail =
              read.subList(1, read.size()).stream()
                  .map(e -> e.path("event_hash").asText())
                  .toList();
          if (!tail.equals(appended)) {
            throw new CheckFailure("the events read back are not those appended");
          }
          return live.cursorHeaders(last, at);
        });
    runner.check(
        group,
        "a page holds the events after the sequence asked for and says whether more follow",
        () -> {
          requireServed.run();
          String session = live.newSession();
          ChainCursor at = live.cursor(session);
          for (int i = 0; i < 3; i++) {
            ObjectNode event = live.noteEvent(session, at);
            expectSuccess(live.appendEvent(session, at, event));
            at = at.advance(event.path("event_hash").asText());
          }
          JsonNode page = expectSuccess(live.events(session, "after=1&limit=2", live.agent));
          JsonNode events = page.path("events");
          if (events.size() != 2
              || events.get(0).path("sequence").asLong() != 2
              || events.get(1).path("sequence").asLong() != 3
              || !page.path("has_more").asBoolean()) {
            throw new CheckFailure("after=1&limit=2 answered " + page);
          }
          JsonNode end = expectSuccess(live.events(session, "after=" + at.revision(), live.agent));
          if (end.path("events").size() != 0 || end.path("has_more").asBoolean()) {
            throw new CheckFailure("a page after the last event answered " + end);
          }
          return null;
        });
    runner.check(
        group,
        "the event log of an unknown WorkSession is refused as getWorkSession refuses it, with unauthorized_actor",
        () -> {
          requireServed.run();
          String unknown = live.id("ws-unknown");
          Exchange events = live.events(unknown, "", live.human);
          expectRefusal(events, "unauthorized_actor");
          Exchange read = live.send("getWorkSession", unknown, live.readHeaders(live.human));
          if (!untraced(events).equals(untraced(read))) {
            throw new CheckFailure(
                "the refusals differ: " + events.bodyExcerpt() + " / " + read.bodyExcerpt());
          }
          return null;
        });
    runner.check(
        group,
        "a page larger than the documented maximum is refused with unknown_state, not cut",
        () -> {
          requireServed.run();
          String session = live.newSession();
          expectRefusal(
              live.events(session, "limit=" + (EventLog.MAX_LIMIT + 1), live.human),
              "unknown_state");
          return null;
        });
    return served;
  }

  private static JsonNode untraced(Exchange exchange) {
    JsonNode body = exchange.body().deepCopy();
    if (body instanceof ObjectNode object) {
      object.remove("trace_id");
    }
    return body;
  }
}
