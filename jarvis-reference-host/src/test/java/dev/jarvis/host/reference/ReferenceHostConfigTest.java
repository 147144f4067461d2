package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.host.HostAuth;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.WorkSessionGovernance;
import dev.jarvis.host.reference.ReferenceHostConfig.Readiness;
import dev.jarvis.host.undertow.HttpLimits;
import dev.jarvis.samples.SampleRecords;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReferenceHostConfigTest {

  private static final HostAuth AUTH = HostAuth.bearer("t");

  @Test
  void aConfigurationWithoutAuthIsRefusedWhenBuilt() {
    NullPointerException e =
        assertThrows(NullPointerException.class, () -> ReferenceHostConfig.builder().build());
    assertTrue(e.getMessage().contains("auth"), e.getMessage());
  }

  @Test
  void aBuilderStartsFromTheDocumentedDefaults() {
    ReferenceHostConfig config = ReferenceHostConfig.builder().auth(AUTH).build();
    assertSame(AUTH, config.auth());
    assertFalse(config.demoMode());
    assertEquals(0, config.port());
    assertEquals(List.of(), config.policies());
    assertEquals(HttpRuntime.UNDERTOW, config.runtime());
    assertEquals(HttpLimits.defaults(), config.limits());
    assertEquals(Readiness.defaults(), config.readiness());
    assertFalse(config.console());
    assertTrue(config.notifier().isEmpty());
    assertEquals(WorkSessionGovernance.NONE, config.hostConfig().governance());
  }

  @Test
  void demoModeLetsTheSamplePolicyGovernEveryHumanUnlessTheHostSettingsSayOtherwise() {
    ReferenceHostConfig demo = ReferenceHostConfig.demo("t").build();
    assertTrue(demo.demoMode());
    assertEquals(ReferenceHostConfig.DEMO_GOVERNANCE, demo.hostConfig().governance());
    ReferenceHostConfig replaced =
        ReferenceHostConfig.demo("t").host(b -> b.governance(WorkSessionGovernance.NONE)).build();
    assertEquals(WorkSessionGovernance.NONE, replaced.hostConfig().governance());
  }

  @Test
  void hostSettingsGivenLaterAddToThoseGivenBefore() {
    HostConfig host =
        ReferenceHostConfig.demo("t")
            .host(b -> b.adminActorId("admin-1"))
            .host(b -> b.idempotencyRetention(Duration.ofHours(2)))
            .build()
            .hostConfig();
    assertEquals("admin-1", host.adminActorId());
    assertEquals(Duration.ofHours(2), host.idempotencyRetention());
    assertEquals(ReferenceHostConfig.DEMO_GOVERNANCE, host.governance());
  }

  @Test
  void toBuilderKeepsEverySettingAndChangesOnlyWhatIsSetAgain() {
    JsonNode policy = SampleRecords.policy();
    Readiness readiness = new Readiness(Duration.ofMillis(100), Duration.ofMillis(200));
    ReferenceHostConfig original =
        ReferenceHostConfig.demo("t")
            .port(8080)
            .policy(policy)
            .runtime(HttpRuntime.JERSEY)
            .readiness(readiness)
            .console(true)
            .host(b -> b.adminActorId("admin-1"))
            .build();
    ReferenceHostConfig changed = original.toBuilder().port(9090).policy(policy).build();
    assertEquals(9090, changed.port());
    assertEquals(8080, original.port());
    assertEquals(List.of(policy, policy), changed.policies());
    assertEquals(List.of(policy), original.policies());
    assertSame(original.auth(), changed.auth());
    assertTrue(changed.demoMode());
    assertEquals(HttpRuntime.JERSEY, changed.runtime());
    assertEquals(readiness, changed.readiness());
    assertTrue(changed.console());
    assertEquals("admin-1", changed.hostConfig().adminActorId());
  }

  @Test
  void policiesReplacesThePoliciesGivenBefore() {
    JsonNode policy = SampleRecords.policy();
    ReferenceHostConfig config =
        ReferenceHostConfig.builder().auth(AUTH).policy(policy).policies(List.of()).build();
    assertEquals(List.of(), config.policies());
  }
}
