package dev.jarvis.client.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.model.DataSensitivity;
import dev.jarvis.model.RiskClass;
import java.net.URI;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The default mapping reads model-written calls: everything it cannot map exactly never runs. */
class ToolActionTableTest {

  final ToolActionTable table =
      ToolActionTable.builder()
          .tool("summarize", RiskClass.LOW)
          .tool(
              ToolRule.of("fetch_external_source", RiskClass.MEDIUM)
                  .targetFrom("url", "source:")
                  .scope("scope:sources")
                  .grant("tool:fetch")
                  .dataSensitivity(DataSensitivity.CONFIDENTIAL))
          .tool("send_mail", call -> Optional.of(ToolAction.of("mail.send", RiskClass.HIGH)))
          .build();

  @Test
  void aToolIsTheActionOfItsNameAtItsRisk() {
    ToolAction action = table.map(ToolCall.of("summarize", "{\"text\": \"x\"}")).orElseThrow();
    assertEquals("summarize", action.action());
    assertEquals(RiskClass.LOW, action.risk());
    assertEquals(Optional.empty(), action.target());
  }

  @Test
  void theTargetComesFromTheConfiguredArgument() {
    ToolAction action =
        table
            .map(ToolCall.of("fetch_external_source", "{\"url\": \"https://a.example/\"}"))
            .orElseThrow();
    assertEquals(Optional.of("source:https://a.example/"), action.target());
    assertEquals(Optional.of("scope:sources"), action.scope());
    assertEquals(Set.of("tool:fetch"), action.grants());
    assertEquals(Optional.of(DataSensitivity.CONFIDENTIAL), action.dataSensitivity());
  }

  @Test
  void anUnknownToolMapsToNothing() {
    assertEquals(Optional.empty(), table.map(ToolCall.of("run_shell", "{}")));
  }

  @Test
  void aLookAlikeToolNameIsAnUnknownTool() {
    assertEquals(Optional.empty(), table.map(ToolCall.of("summarize\u200b", "{}")));
    assertEquals(Optional.empty(), table.map(ToolCall.of("Summarize", "{}")));
  }

  @Test
  void aCallWithoutItsTargetArgumentMapsToNothing() {
    for (String arguments :
        new String[] {
          "{}",
          "{\"url\": null}",
          "{\"url\": \"  \"}",
          "{\"url\": {\"href\": \"https://a.example/\"}}",
          "{\"url\": [\"https://a.example/\"]}",
          "[\"https://a.example/\"]",
          "not json"
        }) {
      assertEquals(
          Optional.empty(), table.map(ToolCall.of("fetch_external_source", arguments)), arguments);
    }
  }

  @Test
  void argumentsThatAreNoObjectNeverMapEvenWithoutATargetArgument() {
    assertEquals(Optional.empty(), table.map(ToolCall.of("summarize", "[1, 2]")));
    assertTrue(table.map(ToolCall.of("summarize", "")).isPresent(), "no arguments at all");
  }

  @Test
  void aPerToolOverrideDecidesForItsTool() {
    ToolAction action = table.map(ToolCall.of("send_mail", "{}")).orElseThrow();
    assertEquals("mail.send", action.action());
    assertEquals(RiskClass.HIGH, action.risk());
  }

  @Test
  void aMappingThatThrowsOnACallNeverLetsItRun() {
    AtomicInteger ran = new AtomicInteger();
    try (JarvisClient client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(URI.create("http://127.0.0.1:9/"))
                .hostAuth("Bearer test")
                .actorId("actor-agent-1")
                .build())) {
      GovernedTools tools =
          GovernedTools.builder(client)
              .mapping(
                  call -> {
                    throw new IllegalArgumentException("cannot read " + call.arguments());
                  })
              .build();
      ToolResult result =
          tools.call(
              Optional.of("ws-1"),
              ToolCall.of("summarize", "{}"),
              () -> "ran " + ran.incrementAndGet());
      assertEquals(Optional.empty(), result.outcome());
      assertTrue(result.text().startsWith("Not run"), result.text());
    }
    assertEquals(0, ran.get());
  }

  @Test
  void aBlankCallIdIsNoCallId() {
    assertEquals(Optional.empty(), new ToolCall("summarize", "{}", Optional.of(" ")).callId());
  }
}
