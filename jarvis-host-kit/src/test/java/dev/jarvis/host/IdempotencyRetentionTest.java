package dev.jarvis.host;

import static dev.jarvis.host.KitHost.HUMAN;
import static dev.jarvis.host.KitHost.WS;
import static dev.jarvis.host.KitHost.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jarvis.core.JarvisJson;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A host's idempotency records last their retention by the host clock ({@code
 * HostConfig.idempotencyRetention}, 24 h by default), then go: by the purge a host runs, and in
 * memory also by the claims that come after, so a host on the in-memory store whose binding never
 * purges still holds only live records under sustained load.
 */
class IdempotencyRetentionTest {

  private static final Instant FAR = Instant.parse("2099-01-01T00:00:00Z");

  private static void appendNotes(KitHost kit, String prefix, int count) {
    for (int i = 0; i < count; i++) {
      ok(
          kit.append(
              WS, HUMAN, prefix + i, "note.recorded", JarvisJson.mapper().createObjectNode()));
    }
  }

  /** Every record the store holds, live or expired; deletes them. */
  private static int held(KitHost kit) {
    return kit.host.config().stores().idempotency().deleteExpired(FAR, Integer.MAX_VALUE);
  }

  @Test
  void requestsAfterTheRetentionLeaveOnlyTheLiveRecordsInMemoryWithoutAPurge() {
    KitHost kit = KitHost.withSession();
    appendNotes(kit, "evt-old-", 30);
    kit.clock.advance(Duration.ofHours(24).plusSeconds(1));
    appendNotes(kit, "evt-new-", 10);
    assertEquals(10, held(kit));
  }

  @Test
  void thePurgeDeletesExactlyTheRecordsPastTheRetentionByTheHostClock() {
    KitHost kit = KitHost.withSession();
    appendNotes(kit, "evt-old-", 5);
    kit.clock.advance(Duration.ofHours(23));
    appendNotes(kit, "evt-new-", 3);
    assertEquals(0, kit.host.purgeExpiredIdempotencyRecords(), "nothing is 24 h old yet");
    kit.clock.advance(Duration.ofHours(1).plusSeconds(1));
    // Seven registrations (three Workers, four Actors), the WorkSession and the five old notes.
    assertEquals(7 + 1 + 5, kit.host.purgeExpiredIdempotencyRecords());
    assertEquals(3, held(kit));
  }
}
