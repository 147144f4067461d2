package dev.jarvis.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.hash.ActionHash;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JarvisCliTest {

  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private byte[] stdin = new byte[0];

  private int run(String... args) {
    return new JarvisCli()
        .run(
            args,
            new ByteArrayInputStream(stdin),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String stdout() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String stderr() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private Path file(String name, String content) throws IOException {
    return Files.writeString(dir.resolve(name), content);
  }

  private static ObjectNode event(int n) {
    ObjectNode draft = JarvisJson.mapper().createObjectNode();
    draft.put("id", "event-" + n).put("type", "note.added").put("work_session_id", "ws-1");
    draft.put("actor_id", "actor-1").put("timestamp", "2026-06-12T18:00:00Z");
    draft.putObject("payload").put("object_type", "work_session").put("action", "noted");
    return draft;
  }

  private static ArrayNode chain(int length) {
    ArrayNode events = JarvisJson.mapper().createArrayNode();
    ChainCursor cursor = ChainCursor.GENESIS;
    for (int n = 1; n <= length; n++) {
      ObjectNode next = EventChain.next(cursor, event(n));
      events.add(next);
      cursor = cursor.advance(next.get("event_hash").asText());
    }
    return events;
  }

  @Test
  void withNoArgumentsItListsTheFifteenOperations() {
    assertEquals(0, run());
    assertTrue(stdout().contains("POST /work-sessions/{work_session_id}/events"), stdout());
    assertTrue(stdout().contains("appendJarvisEvent"), stdout());
    assertTrue(stdout().contains("15 operations"), stdout());
  }

  @Test
  void c14nWritesTheCanonicalBytesWithoutATrailingNewline() throws Exception {
    stdin = "{ \"b\" : [1.0, 1e21, -0], \"a\" : \"\\u00e9\\n\" }".getBytes(StandardCharsets.UTF_8);
    assertEquals(0, run("c14n", "-"));
    assertArrayEquals(
        "{\"a\":\"é\\n\",\"b\":[1,1e+21,0]}".getBytes(StandardCharsets.UTF_8), out.toByteArray());
  }

  @Test
  void hashEventPrintsTheHashTheChainCarries() throws Exception {
    JsonNode event = chain(1).get(0);
    assertEquals(0, run("hash-event", file("e.json", event.toString()).toString()));
    assertEquals(event.get("event_hash").asText(), stdout().trim());
  }

  @Test
  void hashActionPrintsTheNormalizedActionHash() throws Exception {
    String action = "{\"action\":\"fetch\",\"input_refs\":[\"b\",\"a\"]}";
    assertEquals(0, run("hash-action", file("a.json", action).toString()));
    assertEquals(ActionHash.of(JarvisJson.mapper().readTree(action)), stdout().trim());
  }

  @Test
  void verifyChainAcceptsAnIntactChain() throws Exception {
    assertEquals(0, run("verify-chain", file("c.json", chain(3).toString()).toString()));
    assertTrue(stdout().contains("3 events"), stdout());
  }

  @Test
  void verifyChainNamesTheFirstBrokenIndexAndItsErrorId() throws Exception {
    ArrayNode events = chain(3);
    ((ObjectNode) events.get(1).get("payload")).put("action", "forged");
    assertEquals(1, run("verify-chain", file("c.json", events.toString()).toString()));
    assertTrue(stdout().contains("index 1"), stdout());
    assertTrue(stdout().contains("invalid_event_hash"), stdout());
  }

  @Test
  void validatePrintsNoViolationsForAValidRecord() throws Exception {
    String action = "{\"action\":\"fetch\"}";
    assertEquals(0, run("validate", "PolicyActionRequest", file("a.json", action).toString()));
    assertEquals("[ ]", stdout().trim());
  }

  @Test
  void validatePrintsEachViolationAsAProtocolError() throws Exception {
    String action = "{\"action\":\"fetch\",\"password\":\"x\"}";
    assertEquals(1, run("validate", "PolicyActionRequest", file("a.json", action).toString()));
    JsonNode errors = JarvisJson.mapper().readTree(stdout());
    assertEquals(1, errors.size(), stdout());
    assertEquals("/password", errors.get(0).get("field").asText());
    assertEquals("forbidden_host_private_field", errors.get(0).get("error_id").asText());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "frobnicate",
        "hash-event /no/such/file.json",
        "hash-event BROKEN",
        "validate NoSuchSchema BROKEN",
        "verify-chain",
        "c14n BROKEN"
      })
  void unusableInputIsOneLineOnStderrAndExitTwo(String command) throws Exception {
    Path broken = file("broken.json", "{\"a\":1,\"a\":2}");
    String[] args = command.replace("BROKEN", broken.toString()).split(" ");
    assertEquals(2, run(args));
    assertEquals(1, stderr().lines().count(), stderr());
    assertTrue(!stderr().contains("\tat "), stderr());
  }

  @Test
  void versionNamesTheToolAndTheProtocol() {
    assertEquals(0, run("--version"));
    // The tool's version is the project's, whatever release it is (1.0.0-RC1, 1.0.0-SNAPSHOT…).
    assertTrue(
        stdout().matches("(?s)jarvis-cli \\d+\\.\\d+\\.\\d+(-[A-Za-z0-9.]+)?\\R.*"), stdout());
    assertTrue(stdout().contains("Jarvis protocol v0.1"), stdout());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "operations",
        "demo",
        "serve",
        "conformance",
        "load",
        "c14n",
        "hash-event",
        "hash-action",
        "verify-chain",
        "validate",
        "audit",
        "review",
        "watch"
      })
  void everySubcommandAnswersHelpWithItsUsage(String subcommand) {
    assertEquals(0, run(subcommand, "--help"));
    assertTrue(stdout().startsWith("Usage: jarvis-cli " + subcommand), stdout());
  }

  @Test
  void helpListsEverySubcommandAndTheExitCodes() {
    assertEquals(0, run("--help"));
    assertTrue(stdout().contains("verify-chain"), stdout());
    assertTrue(stdout().contains("Exit codes:"), stdout());
  }

  @Test
  void aMissingRequiredOptionIsOneLineNamingItAndExitTwo() {
    assertEquals(2, run("serve", "--port", "0"));
    assertEquals(1, stderr().lines().count(), stderr());
    assertTrue(stderr().contains("--token"), stderr());
  }

  @ParameterizedTest
  @ValueSource(strings = {"c14n", "hash-event", "hash-action"})
  void textTheCanonicalFormCannotCarryIsRefusedByItsErrorIdAndField(String command)
      throws Exception {
    Path lone = file("lone.json", "{\"type\": \"a\\udc00b\"}");
    assertEquals(2, run(command, lone.toString()));
    assertEquals(1, stderr().lines().count(), stderr());
    assertTrue(stderr().contains("unknown_state at /type"), stderr());
  }

  @Test
  void validatePrintsALoneSurrogateAsAViolationOfItsField() throws Exception {
    Path lone = file("lone.json", "{\"action\": \"\\ud800\", \"target_ref\": \"x\"}");
    assertEquals(1, run("validate", "PolicyActionRequest", lone.toString()));
    JsonNode errors = JarvisJson.mapper().readTree(stdout());
    assertEquals("unknown_state", errors.get(0).get("error_id").asText(), stdout());
    assertEquals("/action", errors.get(0).get("field").asText(), stdout());
  }
}
