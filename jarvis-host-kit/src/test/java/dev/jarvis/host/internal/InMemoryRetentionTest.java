package dev.jarvis.host.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.host.IdempotencyClaim;
import dev.jarvis.host.IdempotencyStore;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.StoredResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The in-memory store keeps idempotency records for their retention only, even when nobody runs the
 * purge: each claim drops expired records, judged by the claim's own retention boundary (the host
 * clock's now minus the retention).
 */
class InMemoryRetentionTest {

  private static final Instant T0 = Instant.parse("2026-06-12T18:00:00Z");
  private static final Duration RETENTION = Duration.ofHours(24);
  private static final Instant FAR = T0.plus(Duration.ofDays(3650));

  private final InMemoryProtocolStore store = new InMemoryProtocolStore();

  private void claim(String key, Instant at) {
    IdempotencyStore.Scope scope =
        new IdempotencyStore.Scope("actor-1", "appendJarvisEvent", "v0.1", key);
    StoredResponse response =
        new StoredResponse(
            201, Map.of(), ("{\"key\":\"" + key + "\"}").getBytes(StandardCharsets.UTF_8));
    store.commit(
        Mutation.records(List.of())
            .claiming(
                new IdempotencyClaim(
                    scope,
                    new IdempotencyStore.Entry("sha256:" + key, response, at),
                    at.minus(RETENTION))));
  }

  /** How many records the store holds, expired or not. */
  private int held() {
    return store.deleteExpired(FAR, Integer.MAX_VALUE);
  }

  @Test
  void claimsAfterTheRetentionDropTheExpiredRecordsWithoutAPurge() {
    for (int i = 0; i < 40; i++) {
      claim("old-" + i, T0);
    }
    Instant later = T0.plus(RETENTION).plusSeconds(1);
    for (int i = 0; i < 10; i++) {
      claim("new-" + i, later);
    }
    assertEquals(0, store.deleteExpired(later.minus(RETENTION), Integer.MAX_VALUE));
    assertEquals(10, held());
  }

  @Test
  void liveRecordsAreNeverDroppedByAClaim() {
    for (int i = 0; i < 20; i++) {
      claim("live-" + i, T0.plusSeconds(i));
    }
    claim("last", T0.plusSeconds(3600));
    for (int i = 0; i < 20; i++) {
      assertTrue(
          store
              .find(
                  new IdempotencyStore.Scope("actor-1", "appendJarvisEvent", "v0.1", "live-" + i),
                  T0.minus(RETENTION))
              .isPresent());
    }
    assertEquals(21, held());
  }

  @Test
  void aKeyClaimedAgainAfterItExpiredDoesNotShieldOlderExpiredRecords() {
    claim("reused", T0);
    for (int i = 0; i < 8; i++) {
      claim("old-" + i, T0.plusSeconds(1));
    }
    Instant later = T0.plus(RETENTION).plusSeconds(2);
    claim("reused", later);
    claim("fresh-1", later);
    claim("fresh-2", later);
    assertEquals(3, held(), "the reclaimed key went to the end, behind the expired ones");
  }
}
