package dev.jarvis.cli.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.host.reference.ReferenceHost;
import dev.jarvis.host.reference.ReferenceHostConfig;
import dev.jarvis.samples.SampleRecords;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The light load against the reference host on loopback: its chains are accepted, and what it
 * counts is what the host answered, line for line of the host's request log (no warm-up, so every
 * request counts).
 */
class LightLoadTest {

  private static final String TOKEN = "t0k3n";
  private static final Logger REQUEST_LOG = Logger.getLogger("dev.jarvis.host.reference.requests");

  /** The host's request log lines: "METHOD PATH STATUS actor=ID". */
  private final List<String> hostLines = new CopyOnWriteArrayList<>();

  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          hostLines.add(record.getMessage());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  @BeforeEach
  void captureTheHostsRequestLog() {
    REQUEST_LOG.setLevel(Level.INFO);
    REQUEST_LOG.setUseParentHandlers(false);
    REQUEST_LOG.addHandler(capture);
  }

  @AfterEach
  void restoreTheRequestLog() {
    REQUEST_LOG.removeHandler(capture);
    REQUEST_LOG.setUseParentHandlers(true);
    REQUEST_LOG.setLevel(null);
  }

  @Test
  void everyChainedEventIsAcceptedAndCountedAsTheHostCountsIt() throws Exception {
    LoadResults results;
    try (ReferenceHost host = host()) {
      results = LoadGenerator.run(plan(host).build());
    } // closing the host writes its whole request log

    assertTrue(results.passed(), results.firstProblems().toString());
    assertTrue(results.cursorsAgree());
    assertEquals(0, results.errors(), results.refusals() + " " + results.transportErrors());
    assertTrue(results.accepted() > 0);
    assertEquals(hostAnswers("POST", "/events", "201"), results.accepted());
    assertEquals(results.accepted(), results.latencies().getTotalCount());
    assertEquals(0, hostLines.stream().filter(line -> !line.matches(".* 20[01] actor=.*")).count());
  }

  @Test
  void aRefusedAnswerIsCountedAsAnErrorByItsErrorId() throws Exception {
    LoadResults results;
    try (ReferenceHost host = host()) {
      // An Actor the host does not know: every request of the run is refused.
      results =
          LoadGenerator.run(
              plan(host).cast(new LoadCast("actor-nobody", "worker-none", "worker-none")).build());
    }

    assertEquals(0, results.accepted());
    assertTrue(results.errors() > 0);
    assertEquals(0, results.transportErrors().size(), results.transportErrors().toString());
    assertTrue(
        results.refusals().keySet().stream().noneMatch(id -> id.startsWith("status")),
        "every refusal names its error_id: " + results.refusals());
    long refusedByHost =
        hostLines.stream().filter(line -> !line.matches(".* 2\\d\\d actor=.*")).count();
    assertEquals(refusedByHost, results.errors());
  }

  private static ReferenceHost host() {
    return ReferenceHost.start(
        ReferenceHostConfig.demo(TOKEN).policy(SampleRecords.policy()).build());
  }

  private static LoadPlan.Builder plan(ReferenceHost host) {
    return LoadPlan.builder(host.baseUri(), TOKEN)
        .connections(3)
        .warmup(Duration.ZERO)
        .duration(Duration.ofSeconds(1))
        .light();
  }

  private long hostAnswers(String method, String pathEnd, String status) {
    return hostLines.stream()
        .filter(line -> line.startsWith(method + " "))
        .filter(line -> line.contains(pathEnd + " " + status + " "))
        .count();
  }
}
