package dev.jarvis.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link ProtocolHost#answer}: routing, checking and handling in one call, for thin bindings. */
class AnsweringRequestsTest {

  private final KitHost kit = KitHost.withSession();

  @ParameterizedTest(name = "{0} {1} is answered {2} {3}")
  @CsvSource({
    "GET, /no-such-operation, 404, unknown_state",
    "DELETE, /work-sessions/ws-1, 405, unknown_state",
    "GET, /work-sessions/ws%zz, 400, unknown_state",
    "GET, /work-sessions/ws-1, 200, ''",
    "GET, /work-sessions/ws%2D1, 200, ''",
  })
  void aRequestIsRoutedCheckedAndHandledInOneCall(
      String method, String path, int status, String errorId) throws IOException {
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.put("Jarvis-Protocol-Version", "v0.1");
    headers.put("Jarvis-Actor-Id", KitHost.HUMAN);

    StoredResponse answer =
        kit.host.answer(
            method, path, "", name -> Optional.ofNullable(headers.get(name)), new byte[0]);

    JsonNode body = JarvisJson.mapper().readTree(answer.body());
    assertEquals(status, answer.status(), body.toString());
    assertEquals(errorId, body.path("error_id").asText());
    assertEquals("v0.1", answer.headers().get("Jarvis-Protocol-Version"));
  }

  @ParameterizedTest(name = "without {0} the guard refuses with {1}")
  @CsvSource({
    "Jarvis-Protocol-Version, missing_protocol_version",
    "Jarvis-Actor-Id, missing_actor"
  })
  void aRefusalOfTheGuardIsAnsweredWithItsProtocolError(String missing, String errorId)
      throws IOException {
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.put("Jarvis-Protocol-Version", "v0.1");
    headers.put("Jarvis-Actor-Id", KitHost.HUMAN);
    headers.remove(missing);

    StoredResponse answer =
        kit.host.answer(
            "GET",
            "/work-sessions/ws-1",
            "",
            name -> Optional.ofNullable(headers.get(name)),
            new byte[0]);

    assertEquals(400, answer.status());
    assertEquals(errorId, JarvisJson.mapper().readTree(answer.body()).path("error_id").asText());
  }
}
