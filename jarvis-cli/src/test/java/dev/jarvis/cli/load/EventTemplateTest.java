package dev.jarvis.cli.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.canonical.JcsCanonicalizer;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.hash.EventHash;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.JarvisEventPayload;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The light load's events are the events the checked load builds, hashed as the host hashes. */
class EventTemplateTest {

  private static final Instant NOW = Instant.parse("2026-06-12T18:00:07Z");

  static Stream<Arguments> events() {
    ChainCursor later =
        new ChainCursor(
            41, "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
    return Stream.of(
        Arguments.of("actor-load-1", ChainCursor.GENESIS, "evt-run-7"),
        Arguments.of("actor-load-1", later, "evt-run-1234567"),
        // Text that needs escaping or is beyond ASCII, in the fixed part and in a slot.
        Arguments.of("actor-\"é\"-\u0007", later, "evt-\"quoted\"\\-ü"));
  }

  @ParameterizedTest
  @MethodSource("events")
  void aWrittenEventIsTheChainedRecordAndCarriesItsOwnHash(
      String actor, ChainCursor cursor, String id) throws Exception {
    ProtocolRecords records =
        new ProtocolRecords(Clock.fixed(NOW, ZoneOffset.UTC), () -> "unused", actor);
    ObjectNode draft = draft(records);
    EventTemplate template = new EventTemplate(draft.deepCopy());

    EventTemplate.Written written = template.next(cursor, id, RequestTimestamp.format(NOW));

    JsonNode sent = JarvisJson.mapper().readTree(written.body());
    ObjectNode expected = draft.deepCopy().put("id", id);
    expected = EventChain.next(cursor, expected);
    assertEquals(canonical(expected), canonical(sent));
    assertEquals(EventHash.of(sent), written.eventHash());
    assertEquals(expected.path("event_hash").asText(), written.eventHash());
  }

  private static String canonical(JsonNode event) {
    return new String(JcsCanonicalizer.canonicalize(event), StandardCharsets.UTF_8);
  }

  private static ObjectNode draft(ProtocolRecords records) {
    return JarvisJson.mapper()
        .valueToTree(
            records.addressedEvent(
                "ws-load-1",
                "note.added",
                JarvisEventPayload.ObjectTypeEnum.WORK_SESSION,
                "ws-load-1",
                "added"));
  }
}
