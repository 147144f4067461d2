package dev.jarvis.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReservedNamesTest {

  private static final ReservedNames RESERVED =
      ReservedNames.of(List.of("review.recorded", "work_session.created"));

  @ParameterizedTest(name = "''{0}'' reads as review.recorded")
  @ValueSource(
      strings = {
        "review.recorded",
        "Review.Recorded",
        "REVIEW.RECORDED",
        "review.recorded\u200B",
        "\u200Breview.recorded",
        "review. recorded",
        "review.recorded ",
        "r\u0435view.recorded",
        "review.rec\u043Erded",
        "\uFF52eview.recorded",
        "review\u2024recorded",
        "review.recorded\u00AD",
        "review.recorded\uFEFF"
      })
  void a_reserved_name_and_its_look_alikes_are_reserved(String name) {
    assertEquals(Optional.of("review.recorded"), RESERVED.reservedAs(name));
  }

  @ParameterizedTest(name = "''{0}'' is a name of its own")
  @ValueSource(
      strings = {"review.noted", "review_recorded", "reviews.recorded", "note.recorded", "review"})
  void a_name_that_differs_in_letters_is_free(String name) {
    assertEquals(Optional.empty(), RESERVED.reservedAs(name));
  }
}
