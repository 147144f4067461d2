package dev.jarvis.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.jarvis.cli.demo.AgentWalkthrough;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.core.notification.RequestNotification;
import dev.jarvis.core.notification.WebhookVerificationException;
import dev.jarvis.core.notification.WebhookVerifier;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.Request;
import dev.jarvis.model.WorkerType;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --webhook URL --webhook-secret-file FILE [--webhook-allow-private]}: a receiver gets
 * one signed notification per Request and verifies it; the secret is read from a file and never
 * printed.
 */
class ServeWebhookTest {

  private static final String SECRET = "serve-webhook-secret-0123456789abcdef";
  private static final AgentWalkthrough.Cast CAST = AgentWalkthrough.Cast.reference();

  @TempDir Path dir;
  private HttpServer receiver;
  private final BlockingQueue<Object> received = new LinkedBlockingQueue<>();

  @BeforeEach
  void receiver() throws Exception {
    WebhookVerifier verifier =
        WebhookVerifier.builder(SECRET.getBytes(StandardCharsets.UTF_8)).build();
    receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    receiver.createContext(
        "/hooks/jarvis",
        exchange -> {
          byte[] body = exchange.getRequestBody().readAllBytes();
          try {
            received.add(verifier.verify(exchange.getRequestHeaders(), body));
            exchange.sendResponseHeaders(204, -1);
          } catch (WebhookVerificationException e) {
            received.add(e.reason());
            exchange.sendResponseHeaders(400, -1);
          }
          exchange.close();
        });
    receiver.start();
  }

  @AfterEach
  void stopReceiver() {
    receiver.stop(0);
  }

  private String hookUrl() {
    return "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hooks/jarvis?token=q";
  }

  @Test
  void theReceiverGetsOneSignedNotificationForTheRequestAndVerifiesIt() throws Exception {
    Path secret = Files.writeString(dir.resolve("webhook-secret"), SECRET + "\n");
    ServeCommandTest.Serving serving =
        ServeCommandTest.Serving.start(
            "--port",
            "0",
            "--token",
            "t",
            "--store",
            "memory",
            "--webhook",
            hookUrl(),
            "--webhook-secret-file",
            secret.toString(),
            "--webhook-allow-private");
    String announced = serving.nextLine();
    assertTrue(announced.startsWith("Notifications to http://127.0.0.1:"), announced);
    assertFalse(announced.contains("token=q"), "the URL's query is not printed");
    assertFalse(announced.contains(SECRET), "the secret is never printed");

    JarvisClient client = ServeCommandTest.client(serving.url(), "t", CAST.adminActor());
    ProtocolRecords records = client.records();
    client.registerWorker(records.worker(CAST.humanWorker(), WorkerType.HUMAN, "reviewer"));
    client.registerWorker(records.worker(CAST.agentWorker(), WorkerType.AGENT, "assistant"));
    client.registerActor(records.actor(CAST.humanActor(), CAST.humanWorker(), ActorType.HUMAN));
    client.registerActor(records.actor(CAST.agentActor(), CAST.agentWorker(), ActorType.AGENT));
    String ws = ReviewCommandTest.workSession(client);
    Request request = ReviewCommandTest.pendingRequest(client.as(CAST.agentActor()), ws);

    // The dispatcher runs every second: wait for the delivery, not for a fixed time.
    Object first = received.poll(20, TimeUnit.SECONDS);
    assertTrue(first instanceof RequestNotification, () -> "received " + first);
    RequestNotification notification = (RequestNotification) first;
    assertEquals(RequestNotification.Kind.REQUEST_CREATED, notification.kind());
    assertEquals(ws, notification.workSessionId());
    assertEquals(Optional.of(request.getId()), notification.requestId());
    serving.stop();
    assertEquals(null, received.poll(), "one notification for the Request, nothing else");
  }

  @Test
  void aWebhookWithoutASecretFileOrFlagsWithoutAWebhookAreUsageErrors() throws Exception {
    assertTrue(
        ServeCommandTest.usageError(
                "--port", "0", "--token", "t", "--store", "memory", "--webhook", hookUrl())
            .getMessage()
            .contains("--webhook-secret-file"));
    Path secret = Files.writeString(dir.resolve("s"), SECRET);
    assertTrue(
        ServeCommandTest.usageError(
                "--port",
                "0",
                "--token",
                "t",
                "--store",
                "memory",
                "--webhook-secret-file",
                secret.toString())
            .getMessage()
            .contains("need --webhook"));
    Path shortSecret = Files.writeString(dir.resolve("short"), "tiny");
    CliException tooShort =
        ServeCommandTest.usageError(
            "--port",
            "0",
            "--token",
            "t",
            "--store",
            "memory",
            "--webhook",
            hookUrl(),
            "--webhook-secret-file",
            shortSecret.toString());
    assertTrue(tooShort.getMessage().contains("at least 16 bytes"), tooShort.getMessage());
    assertFalse(tooShort.getMessage().contains("tiny"));
  }
}
