package dev.jarvis.client.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.model.DataSensitivity;
import dev.jarvis.model.RiskClass;
import java.util.Optional;
import java.util.Set;
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
  void aBlankCallIdIsNoCallId() {
    assertEquals(Optional.empty(), new ToolCall("summarize", "{}", Optional.of(" ")).callId());
  }
}
