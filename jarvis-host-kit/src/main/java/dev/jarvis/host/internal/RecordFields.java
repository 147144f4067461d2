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
}
