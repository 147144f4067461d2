package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.RetryPolicy;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.JarvisEventPayload;
import dev.jarvis.model.WorkerType;
import dev.jarvis.samples.SampleRecords;
import dev.jarvis.store.jdbc.StoreSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A subscriber survives its host's restart: the host ends the stream on shutdown ({@code : end
 * shutdown}), the client reconnects with the last verified sequence once the host is back on its
 * durable store, and the next event arrives once, in chain order, verified against the one before
 * the restart.
 */
@Timeout(60)
class ResumeAfterRestartTest {

  private static final String TOKEN = "restart-token";

  @TempDir Path dir;

  private ReferenceHost start(int port) {
    return ReferenceHost.start(
        ReferenceHostConfig.demo(TOKEN)
            .port(port)
            .policy(SampleRecords.policy())
            .stores(StoreSpec.embedded(dir).open(Optional.empty()))
            .build());
  }

  @Test
  void aSubscriptionResumesAfterTheHostRestartsWithNothingLostOrDoubled() throws Exception {
    ReferenceHost first = start(0);
    int port = first.baseUri().getPort();
    BlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
    BlockingQueue<Throwable> failures = new LinkedBlockingQueue<>();
    try (JarvisClient human =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(first.baseUri())
                .hostAuth("Bearer " + TOKEN)
                .actorId("a-restart-human")
                .retryPolicy(
                    new RetryPolicy(20, Duration.ofMillis(100), Duration.ofMillis(500), 2.0, 0))
                .build())) {
      JarvisClient admin = human.as("host-admin");
      admin.registerWorker(admin.records().worker("w-restart-human", WorkerType.HUMAN, "r"));
      admin.registerWorker(admin.records().worker("w-restart-agent", WorkerType.AGENT, "a"));
      admin.registerActor(
          admin.records().actor("a-restart-human", "w-restart-human", ActorType.HUMAN));
      String ws =
          human
              .createWorkSession(
                  human
                      .records()
                      .workSession(
                          "Survive a restart.",
                          "w-restart-human",
                          "w-restart-agent",
                          SampleRecords.policy().path("id").asText()))
              .getId();
      human
          .subscribe(ws)
          .subscribe(
              new Flow.Subscriber<>() {
                @Override
                public void onSubscribe(Flow.Subscription s) {
                  s.request(Long.MAX_VALUE);
                }

                @Override
                public void onNext(JsonNode event) {
                  events.add(event);
                }

                @Override
                public void onError(Throwable failure) {
                  failures.add(failure);
                }

                @Override
                public void onComplete() {}
              });
      assertEquals(1, events.poll(10, TimeUnit.SECONDS).path("sequence").asLong());

      first.close();
      try (ReferenceHost again = start(port)) {
        assertEquals(port, again.baseUri().getPort());
        human.appendJarvisEvent(
            ws,
            ProtocolRecords.event(
                "note.added", JarvisEventPayload.ObjectTypeEnum.WORK_SESSION, ws, "added"));
        JsonNode next = events.poll(20, TimeUnit.SECONDS);
        assertNull(failures.peek(), () -> String.valueOf(failures.peek()));
        assertEquals(2, next.path("sequence").asLong());
        assertNull(events.poll(200, TimeUnit.MILLISECONDS), "nothing doubled");
      }
    } finally {
      first.close();
    }
  }
}
