package dev.jarvis.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.WorkSessionGovernance;
import dev.jarvis.samples.SampleRecords;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

/** Who governs a WorkSession (#37), from {@code jarvis.host.*} or the service's own bean. */
class GovernancePropertiesTest {

  private final WebApplicationContextRunner demo =
      new WebApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(JarvisHostAutoConfiguration.class))
          .withPropertyValues("jarvis.host.demo-token=demo-token-for-tests");

  @Test
  void withoutPropertiesAPolicyGovernsItsOwnerAloneAndNoAgentServesAnyone() {
    demo.run(
        context ->
            assertThat(context.getBean(ProtocolHost.class).config().governance())
                .isEqualTo(WorkSessionGovernance.NONE));
  }

  @Test
  void policyAssignmentsAndAgentServingComeFromTheProperties() {
    demo.withPropertyValues(
            "jarvis.host.policy-assignments[0]=policy-team=worker-human-7",
            "jarvis.host.policy-assignments[1]=" + SampleRecords.POLICY_ID + "=*",
            "jarvis.host.agent-serves[0]=worker-agent-1=worker-human-7")
        .run(
            context ->
                assertThat(context.getBean(ProtocolHost.class).config().governance())
                    .isEqualTo(
                        WorkSessionGovernance.NONE
                            .assignPolicy("policy-team", "worker-human-7")
                            .assignPolicyToEveryHuman(SampleRecords.POLICY_ID)
                            .agentServes("worker-agent-1", "worker-human-7")));
  }

  @Test
  void aPairWithoutBothSidesStopsTheStartNamingTheProperty() {
    demo.withPropertyValues("jarvis.host.agent-serves[0]=worker-agent-1")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .hasStackTraceContaining(
                        "jarvis.host.agent-serves: expected AGENT_WORKER_ID=HUMAN_WORKER_ID"));
  }

  @Test
  void aGovernanceBeanOfTheServiceTakesThePlaceOfTheProperties() {
    WorkSessionGovernance own =
        WorkSessionGovernance.NONE.agentServes("worker-agent-9", "worker-human-9");
    demo.withPropertyValues("jarvis.host.agent-serves[0]=worker-agent-1=worker-human-7")
        .withBean(WorkSessionGovernance.class, () -> own)
        .run(
            context ->
                assertThat(context.getBean(ProtocolHost.class).config().governance())
                    .isEqualTo(own));
  }
}
