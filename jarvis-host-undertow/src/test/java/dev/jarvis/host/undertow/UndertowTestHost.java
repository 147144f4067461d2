package dev.jarvis.host.undertow;

import dev.jarvis.host.HostAuth;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.samples.SampleRecords;
import io.undertow.Undertow;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;

/** The host kit on the Undertow binding, on a free loopback port, with a fixed clock. */
final class UndertowTestHost implements AutoCloseable {

  static final String TOKEN = "undertow-test-token";
  static final String NOW = "2026-06-12T18:00:00Z";

  final ProtocolHandler handler;
  private final Undertow server;
  private final AtomicInteger keys = new AtomicInteger();

  UndertowTestHost(HttpLimits limits) {
    this(limits, ProtocolHandler.AnswerThread.WORKER);
  }

  UndertowTestHost(HttpLimits limits, ProtocolHandler.AnswerThread thread) {
    this(limits, thread, (exchange, status) -> {});
  }

  UndertowTestHost(
      HttpLimits limits,
      ProtocolHandler.AnswerThread thread,
      ProtocolHandler.AnswerListener listener) {
    AtomicInteger traces = new AtomicInteger();
    ProtocolHost host =
        new ProtocolHost(
            HostConfig.builder(HostAuth.bearer(TOKEN))
                .clock(Clock.fixed(Instant.parse(NOW), ZoneOffset.UTC))
                .traceIds(() -> "trace:undertow-" + traces.incrementAndGet())
                .build());
    handler = new ProtocolHandler(host, limits, listener, thread);
    server =
        LimitedServer.builder(limits).addHttpListener(0, "127.0.0.1").setHandler(handler).build();
    server.start();
  }

  int port() {
    return ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
  }

  RawConnection connect() throws java.io.IOException {
    return new RawConnection(port());
  }

  /** The head of a request with HostAuth and the read headers, without its final blank line. */
  static String readHead(String path) {
    return "GET "
        + path
        + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
        + TOKEN
        + "\r\nJarvis-Protocol-Version: v0.1\r\nJarvis-Actor-Id: host-admin\r\n";
  }

  /** A complete registerWorker request for a new Worker whose body is {@code body}. */
  String registerWorker(String workerId, byte[] body) {
    return "PUT /workers/"
        + workerId
        + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
        + TOKEN
        + "\r\nJarvis-Protocol-Version: v0.1\r\nJarvis-Actor-Id: host-admin"
        + "\r\nJarvis-Idempotency-Key: key-"
        + keys.incrementAndGet()
        + "\r\nJarvis-Request-Timestamp: "
        + NOW
        + "\r\nContent-Type: application/json\r\nContent-Length: "
        + body.length
        + "\r\n\r\n"
        + new String(body, StandardCharsets.ISO_8859_1);
  }

  static byte[] worker(String id) {
    return SampleRecords.worker(id, "human").toString().getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    server.stop();
  }
}
