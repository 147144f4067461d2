package dev.jarvis.core.eventlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.model.JarvisEventPayload;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The event-log read's paging rules and its page, as host and client share them. */
class EventLogTest {

  private static final PayloadValidator SPEC = PayloadValidator.forSpec();

  @Test
  void aRequestNamingNoPageStartsAtGenesisWithTheDefaultSize() {
    assertEquals(
        new EventLog.PageRequest(0, EventLog.DEFAULT_LIMIT),
        EventLog.request(Optional.empty(), Optional.empty()));
    assertEquals("after=7&limit=20", new EventLog.PageRequest(7, 20).query());
  }

  @Test
  void theQueryStringGivesAfterAndLimitDecodedAndIgnoresOtherParameters() {
    assertEquals(
        Map.of("after", "3", "limit", "50"),
        EventLog.queryParameters("after=%33&trace=x&limit=50"));
    assertEquals(Map.of(), EventLog.queryParameters(""));
  }

  @Test
  void aParameterGivenTwiceOrAPageAboveTheMaximumIsRefusedAtItsName() {
    EventLogQueryException twice =
        assertThrows(
            EventLogQueryException.class, () -> EventLog.queryParameters("limit=1&limit=2"));
    assertEquals("/limit", twice.violation().field());
    EventLogQueryException tooBig =
        assertThrows(
            EventLogQueryException.class,
            () -> EventLog.request(Optional.empty(), Optional.of("1001")));
    assertEquals("unknown_state", tooBig.violation().errorId().getValue());
  }

  @Test
  void aPageReadBackIsThePageWrittenWithItsEventsAsSent() {
    ObjectNode genesis =
        EventChain.next(
            ChainCursor.GENESIS,
            JarvisJson.mapper()
                .valueToTree(
                    new ProtocolRecords(
                            Clock.fixed(Instant.parse("2026-06-12T18:00:00Z"), ZoneOffset.UTC),
                            () -> "1",
                            "actor-human-1")
                        .addressedEvent(
                            "ws-1",
                            "note.recorded",
                            JarvisEventPayload.ObjectTypeEnum.WORK_SESSION,
                            "ws-1",
                            "recorded")));
    EventPage page = new EventPage("ws-1", List.of(genesis), true);
    JsonNode json = page.toJson();
    assertEquals(List.of(), EventPage.violations(json, SPEC));
    assertEquals(page, EventPage.of(json, SPEC));
  }

  @Test
  void aBodyWithAnUnknownFieldOrAnEventTheSpecRefusesIsNoPage() {
    ObjectNode json = new EventPage("ws-1", List.of(), false).toJson();
    json.put("next", 3);
    assertFalse(EventPage.violations(json, SPEC).isEmpty());
    ObjectNode badEvent = new EventPage("ws-1", List.of(), false).toJson();
    badEvent.withArray("events").addObject().put("id", "evt-1");
    assertTrue(
        EventPage.violations(badEvent, SPEC).get(0).field().startsWith("/events/0"),
        EventPage.violations(badEvent, SPEC).toString());
  }
}
