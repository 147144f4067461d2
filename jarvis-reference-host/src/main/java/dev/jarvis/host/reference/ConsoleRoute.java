package dev.jarvis.host.reference;

import dev.jarvis.console.Console;
import dev.jarvis.console.ConsoleAnswer;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HttpString;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * The review console on the Undertow runtime: {@link Console} decides every answer, this writes it.
 * The console's API calls this very host over loopback as the signed-in human, so it is told the
 * host's address once the listener is bound ({@link #serve}); until then it answers 503.
 */
final class ConsoleRoute implements HttpHandler {

  private volatile Console console;

  void serve(Console console) {
    this.console = console;
  }

  boolean handles(String path) {
    return path.equals(Console.DEFAULT_MOUNT) || path.startsWith(Console.DEFAULT_MOUNT + "/");
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) throws Exception {
    Console serving = console;
    if (serving == null) {
      exchange.setStatusCode(503);
      exchange.endExchange();
      return;
    }
    String path = exchange.getRequestPath();
    if (serving.blocks(path) && exchange.isInIoThread()) {
      // The API calls the host and waits for it: off the I/O thread.
      exchange.dispatch(this);
      return;
    }
    byte[] body = new byte[0];
    if (serving.blocks(path)) {
      exchange.startBlocking();
      try (InputStream in = exchange.getInputStream()) {
        body = in.readNBytes(Console.MAX_BODY_BYTES + 1);
      }
    }
    String query = exchange.getQueryString();
    ConsoleAnswer answer =
        serving.answer(
            exchange.getRequestMethod().toString(),
            path,
            query == null || query.isEmpty() ? Optional.empty() : Optional.of(query),
            name -> Optional.ofNullable(exchange.getRequestHeaders().getFirst(name)),
            body);
    exchange.setStatusCode(answer.status());
    answer
        .headers()
        .forEach((name, value) -> exchange.getResponseHeaders().put(new HttpString(name), value));
    exchange.getResponseSender().send(ByteBuffer.wrap(answer.body()));
  }
}
