package dev.jarvis.core.hash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class RequestFingerprintTest {

  private static JsonNode body(String text) throws Exception {
    return JarvisJson.mapper().readTree(text);
  }

  private static RequestFingerprint fingerprint(long revision, String body) throws Exception {
    return new RequestFingerprint(
        "recordPolicyDecision",
        "actor-agent-1",
        Map.of("work_session_id", "ws-1"),
        OptionalLong.of(revision),
        Optional.of("sha256:" + "0".repeat(64)),
        body(body));
  }

  @Test
  void theSameRequestWrittenDifferentlyHasTheSameFingerprint() throws Exception {
    assertEquals(
        fingerprint(3, "{\"a\":1.0,\"b\":\"x\"}").hash(),
        fingerprint(3, "{\"b\":\"x\",\"a\":1}").hash());
  }

  @Test
  void aDifferentBodyIsADifferentRequest() throws Exception {
    assertNotEquals(fingerprint(3, "{\"a\":1}").hash(), fingerprint(3, "{\"a\":2}").hash());
  }

  @Test
  void aDifferentExpectedRevisionIsADifferentRequest() throws Exception {
    assertNotEquals(fingerprint(3, "{\"a\":1}").hash(), fingerprint(4, "{\"a\":1}").hash());
  }
}
