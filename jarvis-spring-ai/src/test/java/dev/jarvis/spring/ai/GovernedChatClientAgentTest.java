package dev.jarvis.spring.ai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.governed.GovernedOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The Spring AI example: a {@code ChatClient} agent whose tools (a {@code ToolCallbackProvider}
 * bean) are governed by the auto-configuration beside the service's {@code JarvisClient} bean,
 * driven by a scripted model that asks for a tool, against the stub host with a human who answers.
 */
class GovernedChatClientAgentTest {

  /** The agent's domain: plain Spring AI tools that know nothing of Jarvis. */
  static final class ResearchTools {
    final AtomicInteger fetches = new AtomicInteger();
    final AtomicInteger summaries = new AtomicInteger();
    final AtomicInteger shell = new AtomicInteger();

    @Tool(name = "fetch_external_source", description = "Fetches a page from an external source")
    String fetch(@ToolParam(description = "the page's address") String url) {
      fetches.incrementAndGet();
      return "The page at " + url + " says: use TLS 1.3.";
    }

    @Tool(name = "summarize", description = "Summarizes a text")
    String summarize(@ToolParam(description = "the text") String text) {
      summaries.incrementAndGet();
      return "Summary: " + text.substring(0, Math.min(10, text.length()));
    }

    @Tool(name = "run_shell", description = "Runs a shell command")
    String runShell(@ToolParam(description = "the command") String command) {
      shell.incrementAndGet();
      return "ran " + command;
    }
  }

  final StubHostAgent host = new StubHostAgent();
  final ResearchTools tools = new ResearchTools();

  @AfterEach
  void close() {
    host.close();
  }

  /** The service: its JarvisClient, its tools and the mapping in properties; nothing else. */
  ApplicationContextRunner service() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(JarvisAgentGovernanceAutoConfiguration.class))
        .withBean(JarvisClient.class, () -> host.agent)
        .withBean(
            "researchTools",
            ToolCallbackProvider.class,
            () -> MethodToolCallbackProvider.builder().toolObjects(tools).build())
        .withBean(
            GovernedOptions.class,
            () ->
                GovernedOptions.builder()
                    .policy(host.policy)
                    .reviewWait(Duration.ofMinutes(10))
                    .requestExpiresIn(Duration.ofHours(1))
                    .build())
        .withPropertyValues(
            "jarvis.agent.governance.tools.summarize.risk=low",
            "jarvis.agent.governance.tools.fetch_external_source.risk=medium",
            "jarvis.agent.governance.tools.fetch_external_source.target-argument=url",
            "jarvis.agent.governance.tools.fetch_external_source.target-prefix=source:");
  }

  /** Asks the agent once, the WorkSession given in the tool context. */
  String ask(AssertableApplicationContext context, ScriptedChatModel model) {
    return chatClient(model)
        .prompt("What does the vendor say about TLS?")
        .tools(context.getBean(ToolCallbackProvider.class))
        .toolContext(JarvisToolContext.workSession(host.ws))
        .call()
        .content();
  }

  static ChatClient chatClient(ScriptedChatModel model) {
    return ChatClient.create(model);
  }

  void run(Consumer<AssertableApplicationContext> test) {
    service().run(context -> test.accept(context));
  }

  static ScriptedChatModel fetch() {
    return new ScriptedChatModel(
        "fetch_external_source", "{\"url\": \"https://vendor.example/tls\"}");
  }

  @Test
  void theProviderBeanIsGovernedByTheAutoConfiguration() {
    run(
        context -> {
          assertInstanceOf(
              GovernedToolCallbackProvider.class, context.getBean(ToolCallbackProvider.class));
          assertTrue(context.containsBean("jarvisToolGovernance"));
        });
  }

  @Test
  void withoutAJarvisClientNothingIsConfigured() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(JarvisAgentGovernanceAutoConfiguration.class))
        .run(context -> assertFalse(context.containsBean("jarvisToolGovernance")));
  }

  @Test
  void anApprovedToolRunsExactlyOnceAndTheChainReadsDecisionRequestReviewAction() {
    host.humanApproves();
    run(
        context -> {
          ScriptedChatModel model = fetch();
          String answer = ask(context, model);

          assertEquals(1, tools.fetches.get(), answer);
          assertTrue(answer.contains("use TLS 1.3"), answer);
          assertEquals(
              List.of(
                  "policy_decision.recorded",
                  "request.created",
                  "review.recorded",
                  "agent_action.performed"),
              host.eventTypes());
          assertEquals(List.of(), host.stub.receivedViolations());
        });
  }

  @Test
  void aDeniedToolNeverRunsAndTheModelIsToldWhy() {
    host.humanDenies();
    run(
        context -> {
          ScriptedChatModel model = fetch();
          ask(context, model);

          assertEquals(0, tools.fetches.get());
          String told = model.toldByTools.get(0);
          assertTrue(told.startsWith("Not run"), told);
          assertTrue(told.contains("The human denied it."), told);
          assertFalse(host.eventTypes().contains("agent_action.performed"));
        });
  }

  @Test
  void aToolWhoseWaitTimesOutNeverRuns() {
    run(
        context -> {
          ScriptedChatModel model = fetch();
          ask(context, model);

          assertEquals(0, tools.fetches.get());
          assertTrue(model.toldByTools.get(0).contains("No answer came"), model.toldByTools.get(0));
        });
  }

  @Test
  void anAllowedToolRunsWithoutARequest() {
    run(
        context -> {
          ScriptedChatModel model =
              new ScriptedChatModel("summarize", "{\"text\": \"TLS 1.3 only, please.\"}");
          ask(context, model);

          assertEquals(1, tools.summaries.get());
          assertEquals(
              List.of("policy_decision.recorded", "agent_action.performed"), host.eventTypes());
        });
  }

  @Test
  void anUnmappedToolNeverRuns() {
    run(
        context -> {
          ScriptedChatModel model =
              new ScriptedChatModel("run_shell", "{\"command\": \"rm -rf /\"}");
          ask(context, model);

          assertEquals(0, tools.shell.get());
          assertTrue(model.toldByTools.get(0).contains("no Jarvis governance mapping"));
          assertEquals(List.of(), host.eventTypes());
        });
  }

  @Test
  void aCallWithoutAWorkSessionNeverRuns() {
    run(
        context -> {
          ScriptedChatModel model =
              new ScriptedChatModel("summarize", "{\"text\": \"TLS 1.3 only, please.\"}");
          chatClient(model)
              .prompt("Summarize.")
              .tools(context.getBean(ToolCallbackProvider.class))
              .call()
              .content();

          assertEquals(0, tools.summaries.get());
          assertTrue(model.toldByTools.get(0).contains("no Jarvis WorkSession"));
        });
  }
}
