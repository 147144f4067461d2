package dev.jarvis.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.jarvis.core.signature.ActorKeys;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** HostConfig is built, and rebuilt, through its builder alone. */
class HostConfigTest {

  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-06-12T18:00:00Z"), ZoneOffset.UTC);

  @Test
  void aConfigurationRebuiltFromItsBuilderKeepsEverySetting() {
    Supplier<String> traceIds = () -> "trace:1";
    HostStores stores = HostStores.inMemory();
    CommitHook hook = (mutation, unit) -> {};
    HostConfig config =
        HostConfig.builder(HostAuth.anyCaller())
            .adminActorId("admin-1")
            .clock(CLOCK)
            .traceIds(traceIds)
            .timestampTolerance(Duration.ofSeconds(30))
            .idempotencyRetention(Duration.ofHours(2))
            .capabilities(List.of(HostConfig.CURSOR_HEADERS))
            .stores(stores)
            .defaultPolicy(JsonNodeFactory.instance.objectNode().put("id", "p-1"))
            .commitHook(hook)
            .openWorkSessionsPerActor(3)
            .pendingRequestsPerTargetHuman(4)
            .actorKeys(ActorKeys.none())
            .streams(EventStreamLimits.DEFAULTS)
            .requestNotifications(true)
            .build();

    HostConfig again = config.toBuilder().build();

    assertEquals("admin-1", again.adminActorId());
    assertSame(CLOCK, again.clock());
    assertSame(traceIds, again.traceIds());
    assertEquals(Duration.ofSeconds(30), again.timestampTolerance());
    assertEquals(Duration.ofHours(2), again.idempotencyRetention());
    assertEquals(java.util.Set.of(HostConfig.CURSOR_HEADERS), again.capabilities());
    assertSame(stores, again.stores());
    assertEquals(config.defaultPolicy(), again.defaultPolicy());
    assertSame(hook, again.commitHook().orElseThrow());
    assertEquals(
        PrincipalLimits.DEFAULTS
            .withOpenWorkSessionsPerActor(3)
            .withPendingRequestsPerTargetHuman(4),
        again.limits());
    assertTrue(again.requestNotifications());
    assertEquals(config.toString(), again.toString());
  }

  @Test
  void aSettingChangedThroughToBuilderLeavesTheOriginalAsItWas() {
    HostConfig config = HostConfig.builder(HostAuth.anyCaller()).clock(CLOCK).build();

    HostConfig changed = config.toBuilder().adminActorId("admin-2").build();

    assertEquals(HostConfig.DEFAULT_ADMIN_ACTOR_ID, config.adminActorId());
    assertEquals("admin-2", changed.adminActorId());
    assertFalse(config.commitHook().isPresent());
  }

  @Test
  void aNegativeDurationIsRefusedWhenBuilt() {
    HostConfig.Builder builder =
        HostConfig.builder(HostAuth.anyCaller()).timestampTolerance(Duration.ofSeconds(-1));

    assertThrows(IllegalArgumentException.class, builder::build);
  }
}
