package dev.jarvis.host.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.jarvis.core.notification.RequestNotification;
import dev.jarvis.core.notification.RequestNotification.Kind;
import dev.jarvis.core.notification.WebhookVerificationException;
import dev.jarvis.core.notification.WebhookVerifier;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The built-in webhook against a receiver on loopback (the JDK's HTTP server): signed deliveries
 * the receiver verifies, at least once through failures, redirects refused, and loopback, private
 * and link-local targets refused unless allowed.
 */
class WebhookNotifierTest {

  private static final byte[] SECRET = "the-webhook-secret-for-tests-32b".getBytes();
  private static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  private static final RequestNotification NOTIFICATION =
      RequestNotification.of(
          Kind.REQUEST_CREATED, "ws-1", Optional.of("req-1"), "ws-1.event.3", 3, NOW);

  private HttpServer server;
  private final List<RequestNotification> verified = new CopyOnWriteArrayList<>();
  private final List<String> refusals = new CopyOnWriteArrayList<>();
  private final AtomicInteger hooks = new AtomicInteger();
  private final AtomicInteger elsewhere = new AtomicInteger();
  private volatile int failuresLeft;

  @BeforeEach
  void receiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    WebhookVerifier verifier = WebhookVerifier.builder(SECRET).clock(CLOCK).build();
    server.createContext(
        "/hook",
        exchange -> {
          hooks.incrementAndGet();
          byte[] body = exchange.getRequestBody().readAllBytes();
          if (failuresLeft > 0) {
            failuresLeft--;
            answer(exchange, 503);
            return;
          }
          try {
            verified.add(verifier.verify(exchange.getRequestHeaders(), body));
            answer(exchange, 204);
          } catch (WebhookVerificationException e) {
            refusals.add(e.reason().name());
            answer(exchange, 400);
          }
        });
    server.createContext(
        "/moved",
        exchange -> {
          exchange.getResponseHeaders().add("Location", base() + "elsewhere");
          answer(exchange, 307);
        });
    server.createContext(
        "/elsewhere",
        exchange -> {
          elsewhere.incrementAndGet();
          answer(exchange, 204);
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private static void answer(HttpExchange exchange, int status) throws IOException {
    exchange.sendResponseHeaders(status, -1);
    exchange.close();
  }

  private String base() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
  }

  private WebhookNotifier notifier(String path, boolean allowPrivate) {
    return WebhookNotifier.builder(URI.create(base() + path), SECRET)
        .allowPrivate(allowPrivate)
        .clock(CLOCK)
        .build();
  }

  @Test
  void theReceiverGetsOneSignedNotificationAndVerifiesIt() throws Exception {
    notifier("hook", true).deliver(NOTIFICATION);
    assertEquals(List.of(NOTIFICATION), verified);
    assertEquals(List.of(), refusals);
  }

  @Test
  void aReceiverWithAnotherSecretRefusesTheDelivery() {
    WebhookNotifier wrong =
        WebhookNotifier.builder(URI.create(base() + "hook"), "not-the-receivers-secret!".getBytes())
            .allowPrivate(true)
            .clock(CLOCK)
            .build();
    IOException e = assertThrows(IOException.class, () -> wrong.deliver(NOTIFICATION));
    assertTrue(e.getMessage().contains("400"), e.getMessage());
    assertEquals(List.of("BAD_SIGNATURE"), refusals);
  }

  @Test
  void aReceiverThatFailsTwiceGetsTheNotificationThroughTheDispatcher() {
    failuresLeft = 2;
    InMemoryOutboxForTests outbox = new InMemoryOutboxForTests(NOTIFICATION);
    MovableClock clock = new MovableClock(NOW);
    NotificationDispatcher dispatcher =
        NotificationDispatcher.builder(outbox, notifier("hook", true))
            .clock(clock)
            .jitter(() -> 0)
            .build();
    for (int i = 0; i < 5 && outbox.pending() > 0; i++) {
      dispatcher.dispatchNow();
      clock.advance(Duration.ofMinutes(1));
    }
    assertEquals(3, hooks.get(), "two failed attempts, then the delivery");
    assertEquals(List.of(NOTIFICATION), verified, "one notification, verified");
    assertEquals(0, outbox.pending());
  }

  @Test
  void aRedirectIsAFailedAttemptAndNeverFollowed() {
    IOException e =
        assertThrows(IOException.class, () -> notifier("moved", true).deliver(NOTIFICATION));
    assertTrue(e.getMessage().contains("307"), e.getMessage());
    assertEquals(0, elsewhere.get());
  }

  @Test
  void aLoopbackTargetIsRefusedUnlessPrivateAddressesAreAllowed() throws Exception {
    assertThrows(
        NotificationRefusedException.class, () -> notifier("hook", false).deliver(NOTIFICATION));
    assertEquals(0, hooks.get(), "nothing was sent");
    notifier("hook", true).deliver(NOTIFICATION); // positive control
    assertEquals(1, hooks.get());
  }

  @Test
  void aNameThatResolvesToAPrivateAddressAmongPublicOnesIsRefusedAtSendTime() throws Exception {
    WebhookNotifier rebinding =
        WebhookNotifier.builder(URI.create("http://hooks.example.com/hook"), SECRET)
            .clock(CLOCK)
            .resolver(
                host ->
                    List.of(
                        InetAddress.getByName("93.184.216.34"),
                        InetAddress.getByName("169.254.169.254")))
            .build();
    NotificationRefusedException e =
        assertThrows(NotificationRefusedException.class, () -> rebinding.deliver(NOTIFICATION));
    assertTrue(e.getMessage().contains("169.254.169.254"), e.getMessage());
  }

  @Test
  void onlyAddressesOnThePublicInternetArePublic() throws Exception {
    for (String a :
        List.of(
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "192.0.0.8",
            "198.18.0.1")) {
      assertFalse(WebhookNotifier.isPublic(InetAddress.getByName(a)), a);
    }
    for (String a : List.of("93.184.216.34", "8.8.8.8", "2606:2800:220:1::1")) {
      assertTrue(WebhookNotifier.isPublic(InetAddress.getByName(a)), a);
    }
  }

  @Test
  void aUrlWithCredentialsOrAnotherSchemeIsRefusedAtConfiguration() {
    assertThrows(
        IllegalArgumentException.class,
        () -> WebhookNotifier.builder(URI.create("http://u:p@example.com/h"), SECRET));
    assertThrows(
        IllegalArgumentException.class,
        () -> WebhookNotifier.builder(URI.create("file:///etc/passwd"), SECRET));
    assertThrows(
        IllegalArgumentException.class,
        () -> WebhookNotifier.builder(URI.create("https://example.com/h"), "short".getBytes()));
    assertFalse(
        WebhookNotifier.builder(URI.create("https://example.com/h"), SECRET)
            .build()
            .toString()
            .contains("the-webhook-secret"));
  }

  /** A movable clock. */
  static final class MovableClock extends Clock {
    private volatile Instant now;

    MovableClock(Instant now) {
      this.now = now;
    }

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  /** The in-memory store's outbox holding one notification. */
  static final class InMemoryOutboxForTests implements NotificationOutbox {
    private final NotificationOutbox inner;

    InMemoryOutboxForTests(RequestNotification notification) {
      dev.jarvis.host.HostStores stores = dev.jarvis.host.HostStores.inMemory();
      stores.commit(dev.jarvis.host.Mutation.records(List.of()).notifying(notification));
      this.inner = stores.notificationOutbox().orElseThrow();
    }

    @Override
    public List<OutboxEntry> claimDue(Instant now, Duration lease, int limit, String owner) {
      return inner.claimDue(now, lease, limit, owner);
    }

    @Override
    public boolean delivered(String id, String owner) {
      return inner.delivered(id, owner);
    }

    @Override
    public boolean retryAt(String id, String owner, int attempts, Instant next, String error) {
      return inner.retryAt(id, owner, attempts, next, error);
    }

    @Override
    public boolean deadLetter(String id, String owner, int attempts, Instant at, String error) {
      return inner.deadLetter(id, owner, attempts, at, error);
    }

    @Override
    public List<DeadLetter> deadLetters(int limit) {
      return inner.deadLetters(limit);
    }

    @Override
    public int pending() {
      return inner.pending();
    }
  }
}
