package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Raw payload after reading: either a JSON tree, or where and why it could not be read.
 *
 * @param node the tree; {@code null} when there is a problem
 * @param pointer JSON Pointer of where reading stopped ({@code ""} for the document)
 * @param problem what is wrong; {@code null} when the payload was read
 */
public record ParsedPayload(JsonNode node, String pointer, String problem) {

  static ParsedPayload of(JsonNode node) {
    return new ParsedPayload(node, "", null);
  }

  static ParsedPayload problem(String pointer, String problem) {
    return new ParsedPayload(null, pointer, problem);
  }

  public boolean isReadable() {
    return problem == null;
  }
}
