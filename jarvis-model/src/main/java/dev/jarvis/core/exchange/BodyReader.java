package dev.jarvis.core.exchange;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.JsonNesting;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * Reads a request body once, into the one tree everything after it looks at: with the strictness of
 * the Jarvis wire mapping ({@link JarvisJson}: duplicate keys, trailing content) and the nesting
 * limit ({@link JsonNesting#MAX_LEVELS}) held by the same parse, as a stream read constraint, so
 * that no tree deeper than the limit is ever built and no second pass counts levels.
 *
 * <p>Stateless and thread-safe; the mapper is built once, per class.
 */
public final class BodyReader {

  private static final ParseCounter PARSES = new ParseCounter();
  private static final ObjectMapper MAPPER = mapper();

  private BodyReader() {}

  /**
   * The body read from {@code raw}. The array is taken over, not copied: the caller hands it on and
   * writes it no more (a binding reads each body into an array of its own).
   *
   * @throws UnreadableBodyException if it is no JSON document the wire mapping reads, or nests
   *     deeper than the limit
   */
  public static RequestBody read(byte[] raw) throws UnreadableBodyException {
    Objects.requireNonNull(raw, "raw");
    JsonNode tree;
    try {
      tree = MAPPER.readTree(raw);
    } catch (IOException e) {
      throw new UnreadableBodyException(e);
    }
    if (tree == null || tree.isMissingNode()) {
      throw new UnreadableBodyException(null);
    }
    return new RequestBody(raw, tree);
  }

  /**
   * How many parsers this reader has opened since the class was loaded: one per body read. Tests
   * use it to show that a request body is parsed once; a host may export it as a metric.
   */
  public static long parses() {
    return PARSES.sum();
  }

  private static ObjectMapper mapper() {
    ObjectMapper strict = JarvisJson.newMapper(PARSES);
    strict
        .getFactory()
        .setStreamReadConstraints(
            StreamReadConstraints.builder().maxNestingDepth(JsonNesting.MAX_LEVELS).build());
    return strict;
  }

  /** The wire mapping's factory, counting the parsers it opens on bytes. */
  private static final class ParseCounter extends JsonFactory {
    private static final long serialVersionUID = 1L;
    private final transient LongAdder opened = new LongAdder();

    @Override
    protected JsonParser _createParser(byte[] data, int offset, int len, IOContext ctxt)
        throws IOException {
      opened.increment();
      return super._createParser(data, offset, len, ctxt);
    }

    long sum() {
      return opened.sum();
    }
  }
}
