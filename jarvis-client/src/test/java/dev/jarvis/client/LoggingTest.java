package dev.jarvis.client;

import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.jarvis.client.ClientFixture.protocolResponse;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
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
}
