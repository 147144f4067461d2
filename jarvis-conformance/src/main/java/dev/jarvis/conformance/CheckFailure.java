package dev.jarvis.conformance;

/** A host answer that breaks the rule a check is about; ends that check as FAIL. */
final class CheckFailure extends RuntimeException {

  private static final long serialVersionUID = 1L;

  CheckFailure(String message) {
    super(message);
  }
}
