package dev.jarvis.host.reference;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** One HTTP answer from the host, as received. */
record Answer(int status, HttpResponse<byte[]> raw) {

  static Answer of(HttpResponse<byte[]> response) {
    return new Answer(response.statusCode(), response);
  }

  byte[] bytes() {
    return raw.body();
  }

  String text() {
    return new String(raw.body(), StandardCharsets.UTF_8);
  }

  JsonNode json() {
    try {
      return JarvisJson.mapper().readTree(raw.body());
    } catch (IOException e) {
      throw new UncheckedIOException("not JSON: " + text(), e);
    }
  }

  Optional<String> header(String name) {
    return raw.headers().firstValue(name);
  }

  /** The {@code error_id} of a ProtocolError answer. */
  String errorId() {
    return json().path("error_id").asText("<not a ProtocolError: " + status + " " + text() + ">");
  }
}
