package dev.jarvis.host.jaxrs.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.conformance.ConformanceConfig;
import dev.jarvis.conformance.ConformanceReport;
import dev.jarvis.conformance.ConformanceSuite;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.samples.SampleRecords;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.glassfish.jersey.internal.Version;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The binding on this module's Jersey line, with Bean Validation present, sharing an application
 * with its own endpoints: the protocol answers spec-valid input the generated constraints would
 * refuse, the application's own validation still works, and the conformance suite passes with the
 * binding at the root or under a context path.
 */
class BindingOnJerseyTest {

  // HTTP/1.1: Grizzly stalls on the JDK client's h2c upgrade (eclipse-ee4j/jersey#6059).
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final AtomicInteger keys = new AtomicInteger();
  private JerseyApplication app;

  @AfterEach
  void stop() {
    if (app != null) {
      app.close();
    }
  }

  @Test
  void theTestsRunOnTheJerseyLineTheBuildAskedFor() {
    String expected = System.getProperty("jarvis.expected.jersey.line");
    assertTrue(
        Version.getVersion().startsWith(expected + "."),
        "Jersey " + Version.getVersion() + " on the classpath, expected " + expected);
  }

  @ParameterizedTest(name = "context path \"{0}\"")
  @ValueSource(strings = {"", "/jarvis"})
  void theConformanceSuitePassesAgainstTheBindingBesideTheApplicationsEndpoints(String path) {
    app = new JerseyApplication(path);
    ConformanceReport report =
        ConformanceSuite.run(
            ConformanceConfig.live(app.base(), JerseyApplication.TOKEN)
                .clock(JerseyApplication.CLOCK)
                .build());
    assertEquals(List.of(), report.failures());
    assertTrue(report.results().size() > 40, "ran " + report.results().size() + " checks");
  }

  @Test
  void aSpecValidRecordThatTheGeneratedConstraintsWouldRefuseIsAccepted() throws Exception {
    app = new JerseyApplication("");
    admin("workers/w-human", SampleRecords.worker("w-human", "human"));
    admin("workers/w-agent", SampleRecords.worker("w-agent", "agent"));
    admin("actors/a-human", SampleRecords.actor("a-human", "w-human", "human", now()));
    ObjectNode session =
        SampleRecords.workSession("ws-emoji", "a-human", "w-human", "w-agent", now());
    // 300 code points, 600 UTF-16 units: within OpaqueRef's maxLength 512 as the schema counts.
    session.put("source_ref", "\uD83D\uDE00".repeat(300));
    Map<String, String> headers = mutation("a-human");
    headers.put("Jarvis-Expected-WorkSession-Revision", "0");
    headers.put("Jarvis-Previous-Event-Hash", ChainCursor.GENESIS.lastEventHash());
    HttpResponse<String> answer = send("POST", "work-sessions", headers, session);
    assertEquals(201, answer.statusCode(), answer.body());
  }

  @Test
  void theApplicationsOwnBeanValidationStillRefusesItsOwnBadInput() throws Exception {
    app = new JerseyApplication("");
    HttpResponse<String> answer =
        send(
            "POST",
            "api/orders",
            Map.of(),
            JarvisJson.mapper().readTree("{\"id\":\"far-too-long\"}"));
    assertEquals(400, answer.statusCode(), answer.body());
    assertFalse(answer.body().contains("error_id"), answer.body());
    assertTrue(answer.headers().firstValue("Jarvis-Protocol-Version").isEmpty());
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "GET|api/hr/workers/7|",
        "GET|api/orders/abc|",
        "GET|api/nothing-here|",
        "GET|api/broken|",
        "POST|api/orders|{\"id\":\"o-1\"}",
        "POST|api/orders|{\"id\":\"o-1\",\"note\":\"a field Order lacks\"}",
        "POST|api/orders|{\"id\":",
        "POST|api/orders|{\"id\":\"far-too-long\"}",
        "DELETE|api/orders/abc|"
      })
  void theApplicationsOwnEndpointsAnswerExactlyAsWithoutJarvis(
      String method, String path, String body) throws Exception {
    app = new JerseyApplication("");
    try (JerseyApplication without = new JerseyApplication("", false)) {
      HttpResponse<String> with = send(app.base(), method, path, body);
      HttpResponse<String> alone = send(without.base(), method, path, body);
      assertEquals(alone.statusCode(), with.statusCode(), with.body());
      assertEquals(headerNames(alone), headerNames(with));
      assertEquals(alone.body(), with.body());
      assertTrue(with.headers().firstValue("Jarvis-Protocol-Version").isEmpty());
    }
  }

  private static java.util.Set<String> headerNames(HttpResponse<String> answer) {
    java.util.Set<String> names = new java.util.TreeSet<>();
    answer.headers().map().keySet().forEach(n -> names.add(n.toLowerCase(java.util.Locale.ROOT)));
    names.removeAll(java.util.Set.of("date", "connection", "keep-alive"));
    return names;
  }

  private void admin(String path, JsonNode body) throws Exception {
    HttpResponse<String> answer = send("PUT", path, mutation("host-admin"), body);
    assertEquals(200, answer.statusCode(), answer.body());
  }

  @Test
  void theProtocolsOwnPathsAnswerAnUnknownMethodWithAProtocolErrorAndItsHeaders() throws Exception {
    app = new JerseyApplication("");
    HttpResponse<String> answer = send("DELETE", "work-sessions/ws-1", Map.of(), null);
    assertEquals(405, answer.statusCode(), answer.body());
    assertTrue(answer.body().contains("\"error_id\""), answer.body());
    assertEquals("v0.1", answer.headers().firstValue("Jarvis-Protocol-Version").orElseThrow());
  }

  private Map<String, String> mutation(String actor) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Jarvis-Protocol-Version", "v0.1");
    headers.put("Jarvis-Actor-Id", actor);
    headers.put("Jarvis-Idempotency-Key", "key-" + keys.incrementAndGet());
    headers.put("Jarvis-Request-Timestamp", now());
    return headers;
  }

  private static String now() {
    return RequestTimestamp.format(JerseyApplication.CLOCK.instant());
  }

  private HttpResponse<String> send(URI base, String method, String path, String body)
      throws IOException, InterruptedException {
    return send(
        base,
        method,
        path,
        Map.of(),
        body == null || body.isEmpty()
            ? null
            : body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  private HttpResponse<String> send(
      String method, String path, Map<String, String> headers, JsonNode body)
      throws IOException, InterruptedException {
    return send(
        app.base(),
        method,
        path,
        headers,
        body == null ? null : body.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  private HttpResponse<String> send(
      URI base, String method, String path, Map<String, String> headers, byte[] body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(base.resolve(URI.create(path)))
            .header("Authorization", "Bearer " + JerseyApplication.TOKEN);
    headers.forEach(request::header);
    if (body == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request.header("Content-Type", "application/json");
      request.method(method, HttpRequest.BodyPublishers.ofByteArray(body));
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
