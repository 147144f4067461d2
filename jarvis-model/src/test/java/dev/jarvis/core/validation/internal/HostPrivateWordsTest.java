package dev.jarvis.core.validation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisSpec;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HostPrivateWordsTest {

  private static final SpecTree SPEC = new SpecTree(JarvisSpec.tree());
  private static final HostPrivateWords WORDS = HostPrivateWords.fromSpec(SPEC);

  @Test
  void theWordsAreReadFromTheSpecPattern() {
    assertEquals(20, WORDS.words().size());
    assertTrue(WORDS.words().contains("password"));
    assertTrue(WORDS.words().contains("ui_state"));
  }

  @Test
  void theSpecUsesTheSameWordsForPreferencesAndPortableValues() {
    String lookahead = lookahead(SPEC.schema("NamespacedExtensions").path("propertyNames"));
    assertEquals(
        lookahead,
        lookahead(
            SPEC.schema("HumanWorker")
                .path("properties")
                .path("preferences")
                .path("propertyNames")));
    assertEquals(
        lookahead,
        lookahead(SPEC.schema("PortableValue").path("anyOf").get(6).path("propertyNames")));
  }

  private static String lookahead(JsonNode propertyNames) {
    String pattern = propertyNames.path("pattern").asText();
    return pattern.substring(0, pattern.indexOf("))") + 2);
  }

  @ParameterizedTest(name = "''{0}'' holds host-private word ''{1}''")
  @CsvSource({
    "acme.password, password",
    "acme.API_KEY, api_key",
    "session_cookie, session_cookie",
    "my_database_id, database"
  })
  void findsTheWord(String name, String word) {
    assertEquals(word, WORDS.foundIn(name).orElseThrow());
  }

  @Test
  void portableNamesHoldNone() {
    for (String name : List.of("acme.review-hint", "answer_length", "units", "tone")) {
      assertFalse(WORDS.foundIn(name).isPresent(), name);
    }
  }
}
