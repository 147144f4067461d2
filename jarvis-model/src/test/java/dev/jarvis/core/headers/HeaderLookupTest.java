package dev.jarvis.core.headers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HeaderLookupTest {

  @Test
  void namesAreFoundInAnyCase() {
    var lookup = HeaderLookup.of(Map.of("JARVIS-ACTOR-ID", "actor-1"));
    assertEquals(Optional.of("actor-1"), lookup.apply("Jarvis-Actor-Id"));
    assertEquals(Optional.empty(), lookup.apply("Jarvis-Protocol-Version"));
  }

  @Test
  void aRuntimesOwnLinesAreCombinedAsEverywhereAndNoLinesAreAbsent() {
    Map<String, List<String>> runtime = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    runtime.put("Jarvis-Extensions", List.of("com.example.a", "com.example.b"));
    runtime.put("Jarvis-Actor-Id", List.of("actor-1"));
    runtime.put("Jarvis-Required-Capabilities", List.of());
    var lookup = HeaderLookup.ofLines(runtime::get);

    assertEquals(Optional.of("com.example.a, com.example.b"), lookup.apply("jarvis-extensions"));
    assertEquals(Optional.of("actor-1"), lookup.apply(JarvisHeaders.ACTOR_ID));
    assertEquals(Optional.empty(), lookup.apply(JarvisHeaders.REQUIRED_CAPABILITIES));
    assertEquals(Optional.empty(), lookup.apply("Authorization"));
  }

  @Test
  void repeatedFieldLinesAreCombinedWithCommas() {
    Map<String, List<String>> lines = new LinkedHashMap<>();
    lines.put("jarvis-extensions", List.of("com.example.a"));
    lines.put("Jarvis-Extensions", List.of("com.example.b", "com.example.c"));
    lines.put("Jarvis-Required-Capabilities", List.of());
    var lookup = HeaderLookup.ofLists(lines);

    assertEquals(
        Optional.of("com.example.a, com.example.b, com.example.c"),
        lookup.apply(JarvisHeaders.EXTENSIONS));
    assertEquals(Optional.empty(), lookup.apply(JarvisHeaders.REQUIRED_CAPABILITIES));
  }

  @Test
  void aRepeatedSingleValuedHeaderFailsItsSyntaxCheck() {
    Map<String, List<String>> lines = Map.of(JarvisHeaders.ACTOR_ID, List.of("actor-1", "actor-2"));
    assertEquals(
        dev.jarvis.model.ProtocolErrorId.MISSING_ACTOR,
        ActorId.parse(HeaderLookup.ofLists(lines).apply(JarvisHeaders.ACTOR_ID))
            .violation()
            .orElseThrow()
            .errorId());
  }
}
