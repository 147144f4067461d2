package dev.jarvis.host.undertow;

import dev.jarvis.host.ProtocolHost;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import org.xnio.Options;

/**
 * An Undertow server builder holding the limits of {@link HttpLimits} that the HTTP parser holds:
 * header count and size, time to send the headers, idle keep-alive connections. The connection
 * limit, the request time for the body and the body size are {@link ProtocolHandler}'s.
 */
public final class LimitedServer {

  private LimitedServer() {}

  /**
   * A builder with the limits set, HTTP/1.1 only, paths left percent-encoded (the host kit decodes
   * path parameters itself, once); add a listener and a handler, then build.
   */
  public static Undertow.Builder builder(HttpLimits limits) {
    int requestMillis = (int) limits.requestTimeout().toMillis();
    return Undertow.builder()
        .setServerOption(UndertowOptions.MAX_HEADERS, limits.maxHeaders())
        .setServerOption(UndertowOptions.MAX_HEADER_SIZE, limits.maxHeaderBytes())
        .setServerOption(UndertowOptions.REQUEST_PARSE_TIMEOUT, requestMillis)
        .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, (int) limits.idleTimeout().toMillis())
        // Undertow's own entity limit (2 MiB by default in 2.4) would cut the connection with no
        // answer; the binding's limits (ProtocolHandler) answer first, so Undertow's sits above
        // them.
        .setServerOption(
            UndertowOptions.MAX_ENTITY_SIZE,
            ProtocolHost.MAX_BODY_BYTES + HttpLimits.DRAIN_LIMIT + 1)
        .setServerOption(UndertowOptions.DECODE_URL, false)
        .setServerOption(UndertowOptions.ENABLE_HTTP2, false)
        // Connections that never send a request are not counted by ProtocolHandler; past twice
        // the limit the server stops accepting until some close (they time out as idle).
        .setSocketOption(Options.CONNECTION_HIGH_WATER, 2 * limits.maxConnections())
        .setSocketOption(Options.CONNECTION_LOW_WATER, 2 * limits.maxConnections())
        .setSocketOption(Options.TCP_NODELAY, true);
  }
}
