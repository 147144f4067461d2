package dev.jarvis.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 25 item 3: the host kit builds no mapper, validator or regular expression per request and
 * reflects on nothing. Mappers and validators are the shared ones ({@code JarvisJson.mapper()},
 * {@code PayloadValidator.forSpec()}, the exchange's {@code BodyReader}); patterns are compiled
 * into static fields. A source scan keeps it so.
 */
class HostPathBuildsNothingPerRequestTest {

  private static final Pattern BUILT_PER_CALL =
      Pattern.compile(
          "newMapper\\(|new ObjectMapper\\(|JsonMapper\\.builder\\(|PayloadValidator\\.forSpec\\([^)]"
              + "|\\.matches\\(\"|\\.(replaceAll|replaceFirst)\\(\"[^\"]*\","
              + "|\\.split\\(\"[^\"]{2,}\""
              + "|getDeclared|getMethod\\(|Class\\.forName\\(|setAccessible\\(");

  @Test
  void noHostKitSourceBuildsAMapperValidatorOrPatternPerCall() throws IOException {
    assertEquals(List.of(), SourceScan.linesMatching(BUILT_PER_CALL, Set.of()));
  }

  @Test
  void theScanFlagsWhatItLooksFor() {
    assertTrue(BUILT_PER_CALL.matcher("name.replaceAll(\"([a-z])\", \"$1\")").find());
    assertTrue(BUILT_PER_CALL.matcher("PayloadValidator.forSpec(document)").find());
    assertTrue(BUILT_PER_CALL.matcher("ObjectMapper m = JarvisJson.newMapper();").find());
    assertFalse(BUILT_PER_CALL.matcher("PayloadValidator.forSpec().validate(s, tree)").find());
    assertFalse(BUILT_PER_CALL.matcher("WORD_BOUNDARY.matcher(s).replaceAll(\"$1_$2\")").find());
  }
}
