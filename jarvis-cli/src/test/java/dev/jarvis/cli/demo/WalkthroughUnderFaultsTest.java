package dev.jarvis.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.RetryPolicy;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.host.reference.ReferenceHost;
import dev.jarvis.host.reference.ReferenceHostConfig;
import dev.jarvis.samples.SampleRecords;
import dev.jarvis.testkit.FaultInjectingProxy;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The whole walkthrough, through a proxy that answers 503 or drops the connection before the host,
 * or loses the answer after the host applied the request: the client's retries with one key per
 * logical call must leave exactly the effects of a fault-free run, every acknowledged effect kept,
 * and a chain that verifies.
 */
class WalkthroughUnderFaultsTest {

  /** The CI floor for injected faults; a long run raises it with -Djarvis.faults=N. */
  private static final int FAULTS = Integer.getInteger("jarvis.faults", 1000);

  private static final Logger QUIET = Logger.getLogger("dev.jarvis");
  private static final PrintStream NOWHERE = new PrintStream(OutputStream.nullOutputStream());

  private final Clock clock = Clock.systemUTC();
  private final AtomicInteger runs = new AtomicInteger();
  private ReferenceHost host;

  @BeforeEach
  void startHost() {
    QUIET.setLevel(Level.SEVERE); // thousands of retried attempts would drown the build log
    host =
        ReferenceHost.start(
            ReferenceHostConfig.demo("t0k3n").policy(SampleRecords.policy()).build());
  }

  @AfterEach
  void stopHost() {
    host.close();
    QUIET.setLevel(null);
  }

  private JarvisClient client(URI base) {
    return JarvisClient.create(
        JarvisClientOptions.builder()
            .baseUri(base)
            .hostAuth("Bearer t0k3n")
            .actorId(AgentWalkthrough.Cast.reference().agentActor())
            .clock(clock)
            .retryPolicy(new RetryPolicy(6, Duration.ZERO, Duration.ZERO, 1.0, 0))
            .sleeper(d -> {})
            .attemptTimeout(Duration.ofSeconds(5))
            .build());
  }

  private AgentWalkthrough.Result walk(JarvisClient client) {
    return new AgentWalkthrough(
            client,
            AgentWalkthrough.Cast.reference(),
            clock,
            () -> "r" + runs.incrementAndGet(),
            NOWHERE)
        .run();
  }

  private List<JsonNode> hostEvents(String workSessionId) {
    return host.host().config().stores().sessions().events(workSessionId);
  }

  @Test
  void aThousandFaultsDuplicateNoEffectAndLoseNoAcknowledgedOne() {
    int eventsOfOneWalk = hostEvents(walk(client(host.baseUri())).workSessionId()).size();
    try (FaultInjectingProxy proxy =
        FaultInjectingProxy.to(host.baseUri()).seed(20261201).faultRate(0.3).start()) {
      JarvisClient client = client(proxy.baseUri());
      int walks = 0;
      while (proxy.injectedTotal() < FAULTS && walks < 500) {
        AgentWalkthrough.Result result = walk(client);
        walks++;
        List<JsonNode> events = hostEvents(result.workSessionId());
        assertEquals(eventsOfOneWalk, events.size(), "walk " + walks + ": events on the host");
        assertEquals(List.of(), EventChain.verify(events).stream().toList(), "walk " + walks);
        String lastHash = events.get(events.size() - 1).path("event_hash").asText();
        assertEquals(lastHash, result.finalCursor().lastEventHash(), "walk " + walks);
        assertEquals(lastHash, result.manifest().getEventChainRoot(), "walk " + walks);
      }
      assertTrue(proxy.injectedTotal() >= FAULTS, "injected " + proxy.injected());
      for (FaultInjectingProxy.Kind kind :
          Set.of(
              FaultInjectingProxy.Kind.UNAVAILABLE_BEFORE,
              FaultInjectingProxy.Kind.DROPPED_BEFORE,
              FaultInjectingProxy.Kind.LOST_AFTER)) {
        assertTrue(proxy.injected().get(kind) > 0, kind + " was injected: " + proxy.injected());
      }
    }
  }

  @Test
  void answersDelayedPastTheClientsTimeoutAreRetriedIntoTheSameEffect() {
    int eventsOfOneWalk = hostEvents(walk(client(host.baseUri())).workSessionId()).size();
    try (FaultInjectingProxy proxy =
        FaultInjectingProxy.to(host.baseUri())
            .seed(7)
            .faultRate(0.1)
            .kinds(Set.of(FaultInjectingProxy.Kind.DELAYED_AFTER))
            // Held back far past the client's timeout, so a delayed answer always times out.
            .delay(Duration.ofSeconds(60))
            .start()) {
      JarvisClient client =
          JarvisClient.create(
              JarvisClientOptions.builder()
                  .baseUri(proxy.baseUri())
                  .hostAuth("Bearer t0k3n")
                  .actorId(AgentWalkthrough.Cast.reference().agentActor())
                  .clock(clock)
                  .retryPolicy(new RetryPolicy(4, Duration.ZERO, Duration.ZERO, 1.0, 0))
                  .sleeper(d -> {})
                  // Every answer not held back must arrive within it: room for a slow machine
                  // (200 ms was not), as it costs a test only one timeout per delay injected.
                  .attemptTimeout(Duration.ofSeconds(2))
                  .build());
      AgentWalkthrough.Result result = walk(client);
      List<JsonNode> events = hostEvents(result.workSessionId());
      assertTrue(proxy.injectedTotal() > 0, "no delay was injected");
      assertEquals(eventsOfOneWalk, events.size());
      assertEquals(List.of(), EventChain.verify(events).stream().toList());
    }
  }
}
