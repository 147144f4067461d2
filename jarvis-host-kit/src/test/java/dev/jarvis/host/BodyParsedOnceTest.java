package dev.jarvis.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.exchange.BodyReader;
import dev.jarvis.samples.SampleRecords;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Issue 24/25: a request body is read once on the host. The guard's {@link BodyReader} is the one
 * parser of request bodies; the validator, the idempotency fingerprint and the rules take its tree.
 */
class BodyParsedOnceTest {

  private final KitHost kit = KitHost.withSession();

  @Test
  void anAcceptedAppendThroughAnswerParsesItsBodyExactlyOnce() {
    byte[] body = nextEvent("evt-once").toString().getBytes(StandardCharsets.UTF_8);
    long before = BodyReader.parses();

    StoredResponse answer = append(body);

    assertEquals(201, answer.status(), () -> new String(answer.body(), StandardCharsets.UTF_8));
    assertEquals(1, BodyReader.parses() - before);
  }

  @Test
  void aReplayedAppendParsesItsBodyOnceAgainAndNoMore() {
    byte[] body = nextEvent("evt-replayed").toString().getBytes(StandardCharsets.UTF_8);
    Map<String, String> headers = headers("key-replayed");
    assertEquals(201, append(body, headers).status());
    long before = BodyReader.parses();

    StoredResponse replay = append(body, headers);

    assertEquals(201, replay.status());
    assertEquals(1, BodyReader.parses() - before);
  }

  @Test
  void aReadParsesNoBody() {
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.put("Jarvis-Protocol-Version", "v0.1");
    headers.put("Jarvis-Actor-Id", KitHost.HUMAN);
    long before = BodyReader.parses();

    StoredResponse answer =
        kit.host.answer(
            "GET",
            "/work-sessions/" + KitHost.WS,
            "",
            name -> Optional.ofNullable(headers.get(name)),
            new byte[0]);

    assertEquals(200, answer.status());
    assertEquals(0, BodyReader.parses() - before);
  }

  private ObjectNode nextEvent(String id) {
    ObjectNode draft =
        SampleRecords.eventDraft(id, KitHost.WS, KitHost.HUMAN, "note.recorded", kit.now());
    return EventChain.next(kit.cursor(KitHost.WS), draft);
  }

  private StoredResponse append(byte[] body) {
    return append(body, headers("key-" + java.util.UUID.nameUUIDFromBytes(body)));
  }

  private StoredResponse append(byte[] body, Map<String, String> headers) {
    return kit.host.answer(
        "POST",
        "/work-sessions/" + KitHost.WS + "/events",
        "",
        name -> Optional.ofNullable(headers.get(name)),
        body);
  }

  private Map<String, String> headers(String key) {
    ChainCursor cursor = kit.cursor(KitHost.WS);
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.put("Jarvis-Protocol-Version", "v0.1");
    headers.put("Jarvis-Actor-Id", KitHost.HUMAN);
    headers.put("Jarvis-Idempotency-Key", key);
    headers.put("Jarvis-Request-Timestamp", kit.now());
    headers.put("Jarvis-Expected-WorkSession-Revision", Long.toString(cursor.revision()));
    headers.put("Jarvis-Previous-Event-Hash", cursor.lastEventHash());
    return headers;
  }
}
