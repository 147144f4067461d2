package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jarvis.core.JarvisJson;
import java.io.IOException;

/**
 * Reads raw payload text into a JSON tree with the Jarvis wire mapping's strictness ({@link
 * JarvisJson#mapper()}): duplicate keys and trailing content are refused. Never throws for bad
 * input: what cannot be read comes back as a {@link ParsedPayload} with a problem.
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

  private static ObjectMapper mapper() {
    return JarvisJson.mapper();
  }

  private static ParsedPayload accept(JsonNode node) {
    if (node == null || node.isMissingNode()) {
      return ParsedPayload.problem("", "the payload is empty: a JSON document is required");
    }
    return ParsedPayload.of(node);
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

  private static String where(JsonLocation location) {
    if (location == null || location.getLineNr() < 0) {
      return "";
    }
    return " at line " + location.getLineNr() + ", column " + location.getColumnNr();
  }
}
