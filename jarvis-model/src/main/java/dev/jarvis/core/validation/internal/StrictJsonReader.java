package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.canonical.CanonicalizationException;
import dev.jarvis.core.canonical.CanonicalizationException.Reason;
import dev.jarvis.core.canonical.JcsCanonicalizer;
import dev.jarvis.core.canonical.internal.CanonicalWriter;
import java.io.IOException;

/**
 * Reads raw payload text into a JSON tree with the Jarvis wire mapping's strictness ({@link
 * JarvisJson#mapper()}): duplicate keys and trailing content are refused, and so is text that
 * canonical JSON cannot carry (a lone UTF-16 surrogate in a string or member name, a number beyond
 * the double range), so that whatever is accepted can be hashed. Never throws for bad input: what
 * cannot be read comes back as a {@link ParsedPayload} with a problem.
 */
public final class StrictJsonReader {

  private static final String DUPLICATE = "Duplicate field ";

  private StrictJsonReader() {}

  public static ParsedPayload read(byte[] json) {
    try {
      return accept(mapper().readTree(json));
    } catch (JsonProcessingException e) {
      return refuse(e);
    } catch (IOException e) {
      return ParsedPayload.problem("", "the payload could not be read: " + e.getClass().getName());
    }
  }

  public static ParsedPayload read(String json) {
    try {
      return accept(mapper().readTree(json));
    } catch (JsonProcessingException e) {
      return refuse(e);
    }
  }

  /**
   * A tree read elsewhere, held to the same rules as text, except duplicate keys, which a tree can
   * no longer show.
   */
  public static ParsedPayload accept(JsonNode node) {
    if (node == null || node.isMissingNode()) {
      return ParsedPayload.problem("", "the payload is empty: a JSON document is required");
    }
    // Jackson reads an escaped lone surrogate in a string value, and 1e400 as an infinity, without
    // complaint: the canonicalizer is the one judge of what can be hashed, asked whenever the tree
    // may hold such text.
    if (CarriedTree.surelyCarried(node)) {
      return ParsedPayload.of(node);
    }
    try {
      JcsCanonicalizer.requireCanonicalForm(node);
    } catch (CanonicalizationException e) {
      return ParsedPayload.uncarried(e);
    }
    return ParsedPayload.of(node);
  }

  private static ObjectMapper mapper() {
    return JarvisJson.mapper();
  }

  /**
   * The reason names the kind of problem and where it is, never the offending text: a payload that
   * fails to parse may hold a secret next to the typo.
   */
  private static ParsedPayload refuse(JsonProcessingException e) {
    String pointer =
        e.getProcessor() instanceof JsonParser parser
            ? parser.getParsingContext().pathAsPointer().toString()
            : "";
    String message = String.valueOf(e.getOriginalMessage());
    if (isSurrogateInName(message) && e.getProcessor() instanceof JsonParser parser) {
      return ParsedPayload.uncarried(
          new CanonicalizationException(
              Reason.LONE_SURROGATE,
              CanonicalWriter.objectPointer(parser),
              "a member name holds a lone UTF-16 surrogate" + where(e.getLocation()),
              e));
    }
    String what;
    if (message.startsWith(DUPLICATE)) {
      what = "duplicate object key " + message.substring(DUPLICATE.length());
    } else if (message.startsWith("Trailing token")) {
      what = "content after the end of the JSON document";
    } else {
      what = "malformed JSON";
    }
    return ParsedPayload.problem(pointer, what + where(e.getLocation()));
  }

  /**
   * Jackson refuses an escaped lone surrogate in a member name itself, before the name is known (in
   * a value it lets it through): the pointer is then the object's. Invalid UTF-8 bytes that would
   * encode a surrogate are malformed text, not a lone surrogate.
   */
  private static boolean isSurrogateInName(String message) {
    return message.contains("surrogate") && message.contains("field name");
  }

  private static String where(JsonLocation location) {
    if (location == null || location.getLineNr() < 0) {
      return "";
    }
    return " at line " + location.getLineNr() + ", column " + location.getColumnNr();
  }
}
