package dev.jarvis.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes exchanges in the recorded-exchange format {@link RecordedExchanges} judges, one file per
 * exchange, named {@code 0001-registerWorker.json} and so on in the order they happened.
 */
final class ExchangeRecorder {

  private ExchangeRecorder() {}

  static void write(List<Exchange> exchanges, Path directory) throws IOException {
    Files.createDirectories(directory);
    for (int i = 0; i < exchanges.size(); i++) {
      Exchange exchange = exchanges.get(i);
      String name = String.format(Locale.ROOT, "%04d-%s.json", i + 1, exchange.operationId());
      Files.write(
          directory.resolve(name),
          JarvisJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(toJson(exchange)));
    }
  }

  static ObjectNode toJson(Exchange exchange) {
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    json.put("operation_id", exchange.operationId());
    ObjectNode request = json.putObject("request");
    headers(request.putObject("headers"), exchange.requestHeaders());
    if (!exchange.requestBody().isMissingNode()) {
      request.set("body", exchange.requestBody());
    }
    ObjectNode response = json.putObject("response");
    response.put("status", exchange.status());
    headers(response.putObject("headers"), exchange.responseHeaders());
    JsonNode body = exchange.body();
    if (!body.isMissingNode()) {
      response.set("body", body);
    } else if (exchange.responseBody().length > 0) {
      response.put(
          "body_text",
          new String(exchange.responseBody(), java.nio.charset.StandardCharsets.UTF_8));
    }
    return json;
  }

  private static void headers(ObjectNode target, Map<String, List<String>> headers) {
    headers.forEach(
        (name, values) -> {
          if (name == null || name.startsWith(":")) {
            return;
          }
          if (values.size() == 1) {
            target.put(name, values.get(0));
          } else {
            values.forEach(v -> target.withArrayProperty(name).add(v));
          }
        });
  }
}
