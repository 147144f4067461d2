package dev.jarvis.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.cli.demo.AgentWalkthrough;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.host.reference.ReferenceHost;
import dev.jarvis.host.reference.ReferenceHostConfig;
import dev.jarvis.samples.SampleRecords;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code audit} online against the reference host (the Undertow binding, which declares {@code
 * event-log}) and offline from the files an online read and an export give, intact and doctored.
 */
class AuditCommandTest {

  private static final String TOKEN = "t0k3n";
  private static final AgentWalkthrough.Cast CAST = AgentWalkthrough.Cast.reference();
  private static ReferenceHost host;
  private static String ws;
  private static JsonNode manifest;
  private static ArrayNode events;

  @TempDir Path dir;

  private String out;
  private String err;

  @BeforeAll
  static void walkTheDemoOnTheReferenceHost() {
    host =
        ReferenceHost.start(ReferenceHostConfig.demo(TOKEN).policy(SampleRecords.policy()).build());
    AtomicInteger ids = new AtomicInteger();
    try (JarvisClient client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(host.baseUri().toString())
                .hostAuth("Bearer " + TOKEN)
                .actorId(CAST.agentActor())
                .build())) {
      AgentWalkthrough.Result result =
          new AgentWalkthrough(
                  client,
                  CAST,
                  Clock.systemUTC(),
                  () -> "audit" + ids.incrementAndGet(),
                  new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
              .run();
      ws = result.workSessionId();
      manifest = JarvisJson.mapper().valueToTree(result.manifest());
      events = JarvisJson.mapper().createArrayNode();
      client.events(ws).forEach(events::add);
    }
  }

  @AfterAll
  static void stop() {
    host.close();
  }

  private int run(String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code =
        new JarvisCli()
            .run(
                args,
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(o, true, StandardCharsets.UTF_8),
                new PrintStream(e, true, StandardCharsets.UTF_8));
    out = o.toString(StandardCharsets.UTF_8);
    err = e.toString(StandardCharsets.UTF_8);
    return code;
  }

  private Path file(String name, JsonNode json) throws Exception {
    Path path = dir.resolve(name);
    Files.writeString(path, json.toString());
    return path;
  }

  @Test
  void anOnlineAuditOfAnHonestHostPassesEveryCheckAndExitsZero() throws Exception {
    int code =
        run(
            "audit",
            "--base-url",
            host.baseUri().toString(),
            "--token",
            TOKEN,
            "--actor",
            CAST.humanActor(),
            "--manifest",
            file("m.json", manifest).toString(),
            ws);
    assertEquals(0, code, out + err);
    assertTrue(out.contains("PASS chain"), out);
    assertTrue(out.contains("PASS last_event_hash"), out);
    assertTrue(out.contains("PASS manifest_refs"), out);
    assertTrue(out.contains("Verdict: PASSED"), out);
  }

  @Test
  void theJsonReportGivesAVerdictPerCheckForMachines() throws Exception {
    int code =
        run(
            "audit",
            "--json",
            "--base-url",
            host.baseUri().toString(),
            "--token",
            TOKEN,
            "--actor",
            CAST.agentActor(),
            ws);
    assertEquals(0, code, out + err);
    JsonNode report = JarvisJson.mapper().readTree(out);
    assertTrue(report.path("passed").asBoolean());
    assertEquals(events.size(), report.path("event_count").asInt());
    assertEquals("chain", report.path("checks").get(0).path("check").asText());
    assertEquals("skipped", report.path("checks").get(3).path("verdict").asText());
  }

  @Test
  void anOfflineAuditOfTheEventsAndTheManifestPasses() throws Exception {
    int code =
        run(
            "audit",
            "--events",
            file("e.json", events).toString(),
            "--manifest",
            file("m.json", manifest).toString());
    assertEquals(0, code, out + err);
    assertTrue(out.contains("SKIP revision"), out);
    assertTrue(out.contains("PASS manifest_root"), out);
  }

  private int doctored(UnaryOperator<ArrayNode> doctor) throws Exception {
    return run(
        "audit",
        "--events",
        file("doctored.json", doctor.apply(events.deepCopy())).toString(),
        "--manifest",
        file("m.json", manifest).toString());
  }

  @Test
  void aChangedPayloadIsCaughtAtItsIndexWithInvalidEventHash() throws Exception {
    int code =
        doctored(
            e -> {
              ObjectNode payload = (ObjectNode) e.get(3).path("payload");
              payload.put("object_id", payload.path("object_id").asText() + "-rewritten");
              return e;
            });
    assertEquals(1, code, out + err);
    assertTrue(out.contains("First failure: chain at index 3 (invalid_event_hash)"), out);
  }

  @Test
  void aDroppedEventIsCaughtWhereTheChainNoLongerLinks() throws Exception {
    int code =
        doctored(
            e -> {
              e.remove(3);
              return e;
            });
    assertEquals(1, code, out + err);
    assertTrue(out.contains("First failure: chain at index 3 (invalid_previous_event_hash)"), out);
  }

  @Test
  void aReorderedLogIsCaughtAtTheFirstEventOutOfPlace() throws Exception {
    int code =
        doctored(
            e -> {
              e.insert(1, e.remove(2));
              return e;
            });
    assertEquals(1, code, out + err);
    assertTrue(out.contains("First failure: chain at index 1 (invalid_previous_event_hash)"), out);
  }

  @Test
  void aLogCutShortOfTheManifestFailsTheRootCheck() throws Exception {
    int code =
        doctored(
            e -> {
              e.remove(e.size() - 1);
              return e;
            });
    assertEquals(1, code, out + err);
    assertTrue(out.contains("FAIL manifest_root"), out);
  }

  @Test
  void neitherAHostNorFilesIsAUsageErrorWithExitTwo() {
    assertEquals(2, run("audit", ws));
    assertTrue(err.contains("--events"), err);
  }
}
