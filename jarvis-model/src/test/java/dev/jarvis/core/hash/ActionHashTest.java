package dev.jarvis.core.hash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import org.junit.jupiter.api.Test;

class ActionHashTest {

  private static JsonNode json(String text) throws Exception {
    return JarvisJson.mapper().readTree(text);
  }

  @Test
  void theHashIsSha256TextOverTheCanonicalAction() throws Exception {
    String hash = ActionHash.of(json("{\"action\":\"fetch\"}"));
    assertTrue(hash.matches("sha256:[0-9a-f]{64}"), hash);
  }

  @Test
  void memberOrderAndRefOrderDoNotChangeTheHash() throws Exception {
    assertEquals(
        ActionHash.of(
            json("{\"action\":\"fetch\",\"input_refs\":[\"b\",\"a\"],\"target_ref\":\"t\"}")),
        ActionHash.of(
            json("{\"target_ref\":\"t\",\"input_refs\":[\"a\",\"b\"],\"action\":\"fetch\"}")));
  }

  @Test
  void anEmptyRefListHashesLikeAnAbsentOne() throws Exception {
    assertEquals(
        ActionHash.of(json("{\"action\":\"fetch\",\"parameter_refs\":[]}")),
        ActionHash.of(json("{\"action\":\"fetch\"}")));
  }

  @Test
  void aDifferentTargetIsADifferentAction() throws Exception {
    assertNotEquals(
        ActionHash.of(json("{\"action\":\"fetch\",\"target_ref\":\"a\"}")),
        ActionHash.of(json("{\"action\":\"fetch\",\"target_ref\":\"b\"}")));
  }
}
