package dev.jarvis.core;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.io.IOException;

/**
 * How deep a Jarvis document may nest, judged on a token stream before anything builds a tree of
 * it: the host kit holds request bodies to it, the client the host's answers (which carry the
 * records requests sent, at the same depth).
 *
 * <p>Why a limit far below Jackson's 1,000 levels: the canonicalizer and the schema validator walk
 * a tree by recursion, several frames a level (the validator six for each level of a {@code
 * PortableValue}). At 1,000 levels a host's worker thread with a small stack, or code not yet
 * compiled (larger frames), overflowed its stack: the worker died and the connection closed with no
 * answer. A client's calling thread is no safer: on a 256 KiB stack, before the JIT compiled the
 * validator, an answer of 128 levels overflowed it. A token stream holds its nesting in an array,
 * so counting here costs no stack; no protocol record comes near the limit.
 */
public final class JsonNesting {

  /** The deepest a document may nest: its outermost object or array is level 1. */
  public static final int MAX_LEVELS = 64;

  // Only the nesting limit: lengths of numbers and strings are judged by whoever reads the
  // document as a whole.
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

  private JsonNesting() {}

  /**
   * Whether the document nests deeper than {@link #MAX_LEVELS}. Text that is not JSON is not judged
   * here: the parser or validator that reads it next names what is wrong with it.
   */
  public static boolean tooDeep(byte[] raw) {
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
