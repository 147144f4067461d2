package dev.jarvis.core.validation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EcmaPatternsTest {

  private static final String JARVIS_ID = "^[A-Za-z0-9][A-Za-z0-9._:-]*$";

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ws-protocol-001",
        "a",
        "A:b.c_d-e",
        "",
        "-a",
        "a b",
        "id\n",
        "id\r\n",
        "é",
        "aé",
        "a\uD83D\uDE00",
        "a/b",
        "a[b]",
        "a\\b",
        "0"
      })
  void theJarvisIdTableAnswersAsTheRegexWithEcmaEndAnchors(String text) {
    boolean regex = Pattern.compile(EcmaPatterns.withEndAnchors(JARVIS_ID)).matcher(text).find();
    assertTrue(EcmaPatterns.asciiRun(JARVIS_ID).isPresent());
    assertEquals(regex, EcmaPatterns.asciiRun(JARVIS_ID).get().test(text));
    assertEquals(regex, EcmaPatterns.compile(JARVIS_ID).test(text));
  }

  @Test
  void anEndAnchorRefusesATrailingNewlineAsEcmaScriptDoes() {
    assertEquals("^a\\z", EcmaPatterns.withEndAnchors("^a$"));
    assertEquals("^[$]\\z", EcmaPatterns.withEndAnchors("^[$]$"));
    assertEquals("^\\$\\z", EcmaPatterns.withEndAnchors("^\\$$"));
  }

  @Test
  void patternsBeyondTwoAsciiClassesGoToTheRegexEngine() {
    for (String regex :
        List.of(
            "^(?!.*(token))[a-z0-9][a-z0-9-]*(\\.[a-z0-9_-]+)+$", "^[^a][b]*$", "^[\\w][b]*$")) {
      assertTrue(EcmaPatterns.asciiRun(regex).isEmpty(), regex);
    }
  }
}
