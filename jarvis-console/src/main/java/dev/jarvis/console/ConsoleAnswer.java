package dev.jarvis.console;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;

/**
 * One answer of the console, decided without any web runtime: a binding writes the status, every
 * header and the body as they are.
 *
 * @param status the HTTP status
 * @param headers the response headers (unmodifiable), the security headers always among them
 * @param body the body bytes (empty for none)
 */
public record ConsoleAnswer(int status, Map<String, String> headers, byte[] body) {

  public ConsoleAnswer {
    Objects.requireNonNull(headers, "headers");
    Objects.requireNonNull(body, "body");
    headers = Map.copyOf(headers);
    body = body.clone();
  }

  /** The body, a copy. */
  @Override
  public byte[] body() {
    return body.clone();
  }

  /** The body as UTF-8 text, for tests and logs of non-secret answers. */
  public String text() {
    return new String(body, StandardCharsets.UTF_8);
  }
}
