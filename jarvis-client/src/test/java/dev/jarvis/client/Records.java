package dev.jarvis.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** One spec-valid record per schema, from {@code records.json}. */
final class Records {

  private static final JsonNode ALL = load();

  private Records() {}

  private static JsonNode load() {
    try (InputStream in = Records.class.getResourceAsStream("records.json")) {
      return JarvisJson.mapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A fresh copy of the record of this schema as JSON. */
  static ObjectNode json(String schema) {
    JsonNode node = ALL.get(schema);
    if (node == null) {
      throw new IllegalArgumentException("no record for " + schema);
    }
    return (ObjectNode) node.deepCopy();
  }

  /** The record of this schema bound to its model class. */
  static <T> T of(Class<T> type) {
    try {
      return JarvisJson.mapper().treeToValue(json(type.getSimpleName()), type);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
