package dev.jarvis.host.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.io.IOException;

/**
 * How deep a request body nests, read as a token stream before anything builds a tree of it.
 *
 * <p>Why a limit far below Jackson's 1,000 levels: the canonicalizer and the schema validator walk
 * a tree by recursion, several frames a level. At 1,000 levels a worker thread with a small stack,
 * or code not yet compiled (larger frames), overflowed its stack: the worker died and the
 * connection closed with no answer. A token stream holds its nesting in an array, so counting here
 * costs no stack; no protocol record comes near the limit.
 */
final class BodyNesting {

  /** The deepest nesting a request body may have: the body object is level 1. */
  static final int MAX_LEVELS = 64;

  // Only the nesting limit: lengths of numbers and strings are judged by the validator, on the
  // body as a whole.
  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(MAX_LEVELS)
                  .maxNumberLength(Integer.MAX_VALUE)
                  .maxStringLength(Integer.MAX_VALUE)
                  .maxNameLength(Integer.MAX_VALUE)
                  .build())
          .build();

  private BodyNesting() {}

  /**
   * Whether the body nests deeper than {@link #MAX_LEVELS}. Text that is not JSON is not judged
   * here: the validator names what is wrong with it.
   */
  static boolean tooDeep(byte[] raw) {
    try (JsonParser parser = FACTORY.createParser(raw)) {
      while (parser.nextToken() != null) {
        // Reading the tokens is the check.
      }
      return false;
    } catch (StreamConstraintsException deeper) {
      return true;
    } catch (IOException notJson) {
      return false;
    }
  }
}
