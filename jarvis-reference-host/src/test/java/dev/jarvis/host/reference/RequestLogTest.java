package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class RequestLogTest {

  @Test
  void eachRequestIsLoggedOnceWithoutItsToken() throws InterruptedException {
    List<String> lines = new CopyOnWriteArrayList<>();
    Handler capture =
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
    Logger logger = Logger.getLogger("dev.jarvis.host.reference.requests");
    logger.addHandler(capture);
    try (TestHost t = TestHost.withSession()) {
      // The setup's own lines (registrations, the WorkSession) may still be on their way to the
      // handler: let them all arrive before forgetting them, or one lands among the lines below.
      RequestLog.awaitWritten(Duration.ofSeconds(30));
      lines.clear();
      Answer a = t.get("/work-sessions/" + Payloads.WS, Payloads.HUMAN);
      assertEquals(200, a.status());
      // The line is written by the log's own thread: wait for it, not for a time.
      RequestLog.awaitWritten(Duration.ofSeconds(30));
      assertEquals(1, lines.size(), lines.toString());
      assertTrue(
          lines
              .get(0)
              .startsWith("GET /work-sessions/" + Payloads.WS + " 200 actor=" + Payloads.HUMAN));
      t.get("/work-sessions/" + Payloads.WS, Payloads.HUMAN);
      RequestLog.awaitWritten(Duration.ofSeconds(30));
      for (String line : lines) {
        assertFalse(line.contains(TestHost.TOKEN), line);
      }
    } finally {
      logger.removeHandler(capture);
    }
  }
}
