package dev.jarvis.core.exchange;

/**
 * A body {@link BodyReader} could not read: not JSON, more than one document, a key twice, or
 * nested deeper than the limit. It says nothing of the content (a secret may sit next to the typo):
 * the guard names the exact violation from the bytes ({@code PayloadValidator}, {@code
 * JsonNesting}), on this error path only.
 */
public final class UnreadableBodyException extends Exception {

  private static final long serialVersionUID = 1L;

  UnreadableBodyException(Throwable cause) {
    super("the body is no JSON document the wire mapping reads", cause, false, false);
  }
}
