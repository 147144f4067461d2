package dev.jarvis.host.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** Reading fields of validated protocol records. */
final class RecordFields {

  private RecordFields() {}

  /** The text items of an array field; empty when absent. */
  static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    for (JsonNode item : array) {
      out.add(item.asText());
    }
    return out;
  }

  /** The {@code action} names of a Policy's {@code PolicyActionRule} list. */
  static List<String> actionNames(JsonNode rules) {
    List<String> out = new ArrayList<>();
    for (JsonNode rule : rules) {
      out.add(rule.path("action").asText());
    }
    return out;
  }
}
