package dev.jarvis.client;

import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.jarvis.client.ClientFixture.protocolResponse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.model.PolicyDecision;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LoggingTest {

  private final Logger logger = Logger.getLogger("dev.jarvis.client");
  private final List<String> lines = new ArrayList<>();
  private final List<LogRecord> records = new ArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          records.add(record);
          lines.add(new java.util.logging.SimpleFormatter().formatMessage(record));
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };
  private ClientFixture host;
  private Level previous;

  @BeforeEach
  void start() {
    previous = logger.getLevel();
    logger.setLevel(Level.ALL);
    capture.setLevel(Level.ALL);
    logger.addHandler(capture);
    host = new ClientFixture();
    host.stubWorkSessionRead();
  }

  @AfterEach
  void stop() {
    logger.removeHandler(capture);
    logger.setLevel(previous);
    host.close();
  }

  @Test
  void eachAttemptIsLoggedWithItsKeyButNeverTheCredentialOrTheBody() {
    String path = "/work-sessions/" + ClientFixture.SESSION + "/policy-decisions";
    host.wireMock.stubFor(
        post(urlPathEqualTo(path))
            .willReturn(protocolResponse(201, Records.json("PolicyDecision").toString())));

    host.client.recordPolicyDecision(ClientFixture.SESSION, Records.of(PolicyDecision.class));

    String log = String.join("\n", lines);
    assertTrue(log.contains("POST " + path + " -> 201 (attempt 1, idempotency key key-1)"), log);
    assertFalse(log.contains("test-token"), log);
    assertFalse(log.contains("External source access"), log);
  }

  @Test
  void attemptsAreLoggedAtDebugAndGivingUpOnceAtWarn() {
    String path = "/work-sessions/" + ClientFixture.SESSION + "/policy-decisions";
    host.wireMock.stubFor(post(urlPathEqualTo(path)).willReturn(protocolResponse(503, "")));

    assertThrows(
        JarvisTransportException.class,
        () ->
            host.client.recordPolicyDecision(
                ClientFixture.SESSION, Records.of(PolicyDecision.class)));

    List<LogRecord> attempts =
        from("dev.jarvis.client.attempt").stream()
            .filter(r -> "POST".equals(r.getParameters()[0]))
            .toList();
    assertEquals(4, attempts.size(), lines::toString);
    assertTrue(attempts.stream().allMatch(r -> r.getLevel() == Level.FINE), lines::toString);
    List<LogRecord> warnings =
        records.stream().filter(r -> r.getLevel().intValue() >= Level.WARNING.intValue()).toList();
    assertEquals(1, warnings.size(), lines::toString);
    assertEquals("dev.jarvis.client.retry", warnings.get(0).getLoggerName());
    assertTrue(
        warnings.get(0).getMessage().contains("the host answered 503 to the last of 4 attempts"),
        warnings.get(0).getMessage());
  }

  private List<LogRecord> from(String loggerName) {
    return records.stream().filter(r -> r.getLoggerName().equals(loggerName)).toList();
  }
}
