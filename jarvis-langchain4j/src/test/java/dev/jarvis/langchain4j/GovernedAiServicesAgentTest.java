package dev.jarvis.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.client.governed.GovernedOptions;
import dev.jarvis.client.tools.ToolActionTable;
import dev.jarvis.client.tools.ToolRule;
import dev.jarvis.model.RiskClass;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.AiServices;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The LangChain4j example: an {@code AiServices} agent whose tools are governed by one wrapper,
 * driven by a scripted model that asks for a tool, against the stub host with a human who answers.
 */
class GovernedAiServicesAgentTest {

  /** The agent's domain: plain LangChain4j tools that know nothing of Jarvis. */
  static final class ResearchTools {
    final AtomicInteger fetches = new AtomicInteger();
    final AtomicInteger summaries = new AtomicInteger();
    final AtomicInteger deletions = new AtomicInteger();
    final AtomicInteger shell = new AtomicInteger();

    @Tool(name = "fetch_external_source", value = "Fetches a page from an external source")
    String fetch(@P(name = "url", value = "the page's address") String url) {
      fetches.incrementAndGet();
      return "The page at " + url + " says: use TLS 1.3.";
    }

    @Tool(name = "summarize", value = "Summarizes a text")
    String summarize(@P(name = "text", value = "the text") String text) {
      summaries.incrementAndGet();
      return "Summary: " + text.substring(0, Math.min(10, text.length()));
    }

    @Tool(name = "delete_repository", value = "Deletes a repository")
    String delete(@P(name = "name", value = "the repository") String name) {
      deletions.incrementAndGet();
      return "deleted " + name;
    }

    @Tool(name = "run_shell", value = "Runs a shell command")
    String runShell(@P(name = "command", value = "the command") String command) {
      shell.incrementAndGet();
      return "ran " + command;
    }
  }

  /** The agent, as LangChain4j users write it. */
  interface Researcher {
    String chat(String message);
  }

  final StubHostAgent host = new StubHostAgent();
  final ResearchTools tools = new ResearchTools();

  @AfterEach
  void close() {
    host.close();
  }

  /** The one wrapper: which tools are which actions, where, and how long to wait for a human. */
  JarvisToolGovernance governance(Duration reviewWait) {
    return JarvisToolGovernance.builder(host.agent)
        .workSession(host.ws)
        .mapping(
            ToolActionTable.builder()
                .tool("summarize", RiskClass.LOW)
                .tool(
                    ToolRule.of("fetch_external_source", RiskClass.MEDIUM)
                        .targetFrom("url", "source:"))
                .tool("delete_repository", RiskClass.HIGH)
                .build())
        .options(
            GovernedOptions.builder()
                .policy(host.policy)
                .reviewWait(reviewWait)
                .requestExpiresIn(Duration.ofHours(1))
                .build())
        .build();
  }

  String ask(ScriptedChatModel model, Duration reviewWait) {
    Researcher researcher =
        AiServices.builder(Researcher.class)
            .chatModel(model)
            .toolProvider(governance(reviewWait).tools(tools))
            .build();
    return researcher.chat("What does the vendor say about TLS?");
  }

  static ScriptedChatModel fetch() {
    return new ScriptedChatModel(
        "fetch_external_source", "{\"url\": \"https://vendor.example/tls\"}");
  }

  static ToolExecutionResultMessage told(ScriptedChatModel model) {
    assertEquals(1, model.toldByTools.size(), "the model was told once");
    return model.toldByTools.get(0);
  }

  @Test
  void anApprovedToolRunsExactlyOnceAndTheChainReadsDecisionRequestReviewAction() {
    host.humanApproves();
    ScriptedChatModel model = fetch();

    String answer = ask(model, Duration.ofMinutes(10));

    assertEquals(1, tools.fetches.get(), answer);
    assertEquals(
        "The tool said: The page at https://vendor.example/tls says: use TLS 1.3.", answer);
    assertEquals(
        List.of(
            "policy_decision.recorded",
            "request.created",
            "review.recorded",
            "agent_action.performed"),
        host.eventTypes());
    assertEquals(List.of(), host.stub.receivedViolations());
  }

  @Test
  void aDeniedToolNeverRunsAndTheModelIsToldWhy() {
    host.humanDenies();
    ScriptedChatModel model = fetch();

    ask(model, Duration.ofMinutes(10));

    assertEquals(0, tools.fetches.get());
    ToolExecutionResultMessage told = told(model);
    assertTrue(told.text().startsWith("Not run"), told.text());
    assertTrue(told.text().contains("The human denied it."), told.text());
    assertEquals(Boolean.TRUE, told.isError());
    assertFalse(host.eventTypes().contains("agent_action.performed"));
  }

  @Test
  void aToolWhoseWaitTimesOutNeverRunsAndTheModelIsToldNoAnswerCame() {
    ScriptedChatModel model = fetch();

    ask(model, Duration.ofMinutes(10));

    assertEquals(0, tools.fetches.get());
    assertTrue(told(model).text().contains("No answer came"), told(model).text());
    assertFalse(host.eventTypes().contains("agent_action.performed"));
  }

  @Test
  void anApprovalNarrowerThanTheCallNeverRunsTheToolAndTheModelIsToldSo() {
    host.humanNarrows();
    ScriptedChatModel model = fetch();

    ask(model, Duration.ofMinutes(10));

    assertEquals(0, tools.fetches.get());
    assertTrue(told(model).text().contains("narrower action"), told(model).text());
    assertFalse(host.eventTypes().contains("agent_action.performed"));
  }

  @Test
  void aToolWhoseRequestExpiresNeverRuns() {
    host.requestsExpire();
    ScriptedChatModel model = fetch();

    ask(model, Duration.ofMinutes(10));

    assertEquals(0, tools.fetches.get());
    assertTrue(told(model).text().startsWith("Not run"), told(model).text());
  }

  @Test
  void anAllowedToolRunsWithoutARequest() {
    ScriptedChatModel model =
        new ScriptedChatModel("summarize", "{\"text\": \"TLS 1.3 only, please.\"}");

    String answer = ask(model, Duration.ofMinutes(10));

    assertEquals(1, tools.summaries.get());
    assertEquals("The tool said: Summary: TLS 1.3 on", answer);
    assertEquals(List.of("policy_decision.recorded", "agent_action.performed"), host.eventTypes());
  }

  @Test
  void aToolThePolicyDeniesNeverRunsAndTheModelIsToldTheRule() {
    ScriptedChatModel model = new ScriptedChatModel("delete_repository", "{\"name\": \"core\"}");

    ask(model, Duration.ofMinutes(10));

    assertEquals(0, tools.deletions.get());
    assertTrue(told(model).text().contains("/denied_actions/0"), told(model).text());
    assertEquals(List.of("policy_decision.recorded"), host.eventTypes());
  }

  @Test
  void anUnmappedToolNeverRunsAndNothingIsAskedOfTheHost() {
    ScriptedChatModel model = new ScriptedChatModel("run_shell", "{\"command\": \"rm -rf /\"}");

    ask(model, Duration.ofMinutes(10));

    assertEquals(0, tools.shell.get());
    assertTrue(told(model).text().contains("no Jarvis governance mapping"), told(model).text());
    assertEquals(List.of(), host.eventTypes());
  }

  @Test
  void aCallWithoutTheTargetArgumentNeverRuns() {
    ScriptedChatModel model = new ScriptedChatModel("fetch_external_source", "{}");
    host.humanApproves();

    ask(model, Duration.ofMinutes(10));

    assertEquals(0, tools.fetches.get());
    assertEquals(List.of(), host.eventTypes());
  }
}
