package dev.jarvis.apicheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnifiedDiffTest {

  @Test
  void equalTextsHaveNoDiff() {
    assertEquals("", UnifiedDiff.between("a", List.of("x", "y"), "b", List.of("x", "y")));
  }

  @Test
  void distantChangesPrintAsSeparateHunksWithThreeLinesOfContext() {
    List<String> before = new ArrayList<>();
    for (int i = 1; i <= 20; i++) {
      before.add("line " + i);
    }
    List<String> after = new ArrayList<>(before);
    after.set(1, "line 2 changed");
    after.remove(16);
    after.add("line 21");

    assertEquals(
        """
        --- a
        +++ b
        @@ -1,5 +1,5 @@
         line 1
        -line 2
        +line 2 changed
         line 3
         line 4
         line 5
        @@ -14,7 +14,7 @@
         line 14
         line 15
         line 16
        -line 17
         line 18
         line 19
         line 20
        +line 21
        """,
        UnifiedDiff.between("a", before, "b", after));
  }
}
