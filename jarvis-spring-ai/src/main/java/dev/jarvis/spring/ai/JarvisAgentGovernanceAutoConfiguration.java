package dev.jarvis.spring.ai;

import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.governed.GovernedOptions;
import dev.jarvis.client.tools.ToolActionMapping;
import dev.jarvis.client.tools.ToolActionTable;
import dev.jarvis.client.tools.ToolRule;
import dev.jarvis.model.DataSensitivity;
import dev.jarvis.model.RiskClass;
import java.util.Map;
import java.util.Optional;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Governs the agent's Spring AI tools beside the service's {@link JarvisClient} bean: a {@link
 * JarvisToolGovernance} bean from {@code jarvis.agent.governance.*} (the mapping from {@code
 * tools.*} unless a {@link ToolActionMapping} bean is given, the WorkSession from {@code
 * work-session-id} unless a {@link WorkSessionSupplier} bean is, the options from {@code
 * review-wait} and {@code request-expires-in} unless a {@link GovernedOptions} bean is), and every
 * {@link ToolCallbackProvider} bean governed ({@code decorate-providers}).
 */
@AutoConfiguration
@ConditionalOnClass(ToolCallbackProvider.class)
@ConditionalOnBean(JarvisClient.class)
@ConditionalOnProperty(
    prefix = "jarvis.agent.governance",
    name = "enabled",
    havingValue = "true",
    matchIfMissing = true)
@EnableConfigurationProperties(JarvisAgentGovernanceProperties.class)
public class JarvisAgentGovernanceAutoConfiguration {

  /** Made by Spring. */
  public JarvisAgentGovernanceAutoConfiguration() {}

  /** The mapping from {@code jarvis.agent.governance.tools.*}: tools not named never run. */
  @Bean
  @ConditionalOnMissingBean
  public ToolActionMapping jarvisToolActionMapping(JarvisAgentGovernanceProperties properties) {
    ToolActionTable.Builder table = ToolActionTable.builder();
    for (Map.Entry<String, JarvisAgentGovernanceProperties.Tool> e :
        properties.getTools().entrySet()) {
      table.tool(rule(e.getKey(), e.getValue()));
    }
    return table.build();
  }

  /** The WorkSession from {@code jarvis.agent.governance.work-session-id} (none if unset). */
  @Bean
  @ConditionalOnMissingBean
  public WorkSessionSupplier jarvisWorkSessionSupplier(JarvisAgentGovernanceProperties properties) {
    Optional<String> id =
        Optional.ofNullable(properties.getWorkSessionId()).filter(s -> !s.isBlank());
    return () -> id;
  }

  /** The governance of the agent's tools, by the service's client. */
  @Bean
  @ConditionalOnMissingBean
  public JarvisToolGovernance jarvisToolGovernance(
      JarvisClient client,
      ToolActionMapping mapping,
      WorkSessionSupplier workSessions,
      ObjectProvider<GovernedOptions> options,
      JarvisAgentGovernanceProperties properties) {
    return JarvisToolGovernance.builder(client)
        .mapping(mapping)
        .workSessions(workSessions)
        .options(options.getIfAvailable(() -> options(properties)))
        .build();
  }

  /** Every {@link ToolCallbackProvider} bean, governed ({@code decorate-providers}). */
  @Bean
  @ConditionalOnProperty(
      prefix = "jarvis.agent.governance",
      name = "decorate-providers",
      havingValue = "true",
      matchIfMissing = true)
  public static BeanPostProcessor jarvisGovernedToolCallbackProviders(
      ObjectProvider<JarvisToolGovernance> governance) {
    return new BeanPostProcessor() {
      @Override
      public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof ToolCallbackProvider provider
            && !(bean instanceof GovernedToolCallbackProvider)) {
          return governance.getObject().govern(provider);
        }
        return bean;
      }
    };
  }

  static GovernedOptions options(JarvisAgentGovernanceProperties properties) {
    GovernedOptions.Builder b = GovernedOptions.builder().reviewWait(properties.getReviewWait());
    if (properties.getRequestExpiresIn() != null) {
      b.requestExpiresIn(properties.getRequestExpiresIn());
    }
    return b.build();
  }

  static ToolRule rule(String toolName, JarvisAgentGovernanceProperties.Tool tool) {
    if (tool.getRisk() == null) {
      throw new IllegalStateException(
          "jarvis.agent.governance.tools." + toolName + ".risk is required");
    }
    ToolRule rule = ToolRule.of(toolName, RiskClass.fromValue(tool.getRisk()));
    if (tool.getAction() != null) {
      rule = rule.action(tool.getAction());
    }
    if (tool.getTarget() != null) {
      rule = rule.target(tool.getTarget());
    }
    if (tool.getTargetArgument() != null) {
      rule = rule.targetFrom(tool.getTargetArgument(), tool.getTargetPrefix());
    }
    if (tool.getScope() != null) {
      rule = rule.scope(tool.getScope());
    }
    if (tool.getScopeArgument() != null) {
      rule = rule.scopeFrom(tool.getScopeArgument(), tool.getScopePrefix());
    }
    if (tool.getDataSensitivity() != null) {
      rule = rule.dataSensitivity(DataSensitivity.fromValue(tool.getDataSensitivity()));
    }
    for (String grant : tool.getGrants()) {
      rule = rule.grant(grant);
    }
    return rule;
  }
}
