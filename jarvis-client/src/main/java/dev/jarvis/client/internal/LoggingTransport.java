package dev.jarvis.client.internal;

import dev.jarvis.core.headers.JarvisHeaders;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.http.HttpRequest;

/**
 * Logs each attempt: method, path, status, attempt and idempotency key. Never {@code
 * Authorization}, never a body: bodies may carry what the protocol forbids to echo.
 */
public final class LoggingTransport implements Transport {

  private static final System.Logger LOG = System.getLogger("dev.jarvis.client");

  private final Transport next;

  public LoggingTransport(Transport next) {
    this.next = next;
  }

  @Override
  public Exchange send(HttpRequest request, int attempt) throws IOException, InterruptedException {
    String key = request.headers().firstValue(JarvisHeaders.IDEMPOTENCY_KEY).orElse("-");
    try {
      Exchange exchange = next.send(request, attempt);
      LOG.log(
          exchange.status() < 400 ? Level.DEBUG : Level.INFO,
          "{0} {1} -> {2} (attempt {3}, idempotency key {4})",
          request.method(),
          request.uri().getRawPath(),
          exchange.status(),
          attempt,
          key);
      return exchange;
    } catch (IOException e) {
      LOG.log(
          Level.INFO,
          "{0} {1} -> {2} (attempt {3}, idempotency key {4})",
          request.method(),
          request.uri().getRawPath(),
          e.getClass().getSimpleName(),
          attempt,
          key);
      throw e;
    }
  }
}
