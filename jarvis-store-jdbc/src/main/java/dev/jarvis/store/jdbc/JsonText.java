package dev.jarvis.store.jdbc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import java.util.LinkedHashMap;
import java.util.Map;

/** JSON trees as stored text, written and read by the host's own wire mapping. */
final class JsonText {

  private JsonText() {}

  static String write(Object value) {
    try {
      return JarvisJson.mapper().writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write stored JSON", e);
    }
  }

  static JsonNode read(String text) {
    try {
      return JarvisJson.mapper().readTree(text);
    } catch (JsonProcessingException e) {
      throw new JdbcStoreException("stored JSON is unreadable", e);
    }
  }

  static ObjectNode object(String text) {
    return (ObjectNode) read(text);
  }

  static Map<String, String> headers(String text) {
    Map<String, String> headers = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> header : read(text).properties()) {
      headers.put(header.getKey(), header.getValue().asText());
    }
    return headers;
  }
}
