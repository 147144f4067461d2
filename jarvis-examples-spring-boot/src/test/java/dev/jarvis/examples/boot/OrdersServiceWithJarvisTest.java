package dev.jarvis.examples.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.conformance.ActorCredential;
import dev.jarvis.conformance.ConformanceConfig;
import dev.jarvis.conformance.ConformanceReport;
import dev.jarvis.conformance.ConformanceSuite;
import dev.jarvis.conformance.RoleCredentials;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.host.Credentials;
import dev.jarvis.samples.SampleRecords;
import dev.jarvis.spring.boot.JarvisHostMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The orders service with Jarvis inside: the conformance suite passes against it with one
 * credential per role, and the service's own endpoints answer exactly as the same service without
 * Jarvis does (status, headers, body), errors and JSON mapping included.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OrdersServiceWithJarvisTest {

  /**
   * The conformance run's prefix: the suite registers its Workers and Actors under it, and the role
   * credentials are bound to Actors under it, so the run touches nothing of the service's own.
   */
  static final String RUN = "conformance-orders-1-";

  static final ActorCredential ADMIN = new ActorCredential("host-admin", "orders-admin-token");
  static final ActorCredential HUMAN = new ActorCredential(RUN + "human", "orders-human-token");
  static final ActorCredential AGENT = new ActorCredential(RUN + "agent", "orders-agent-token");
  static final ActorCredential OUTSIDER =
      new ActorCredential(RUN + "outsider", "orders-other-token");

  static Path dir;
  static ConfigurableApplicationContext withoutJarvis;

  @LocalServerPort int port;
  @Autowired MeterRegistry meters;

  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @DynamicPropertySource
  static void jarvis(DynamicPropertyRegistry properties) throws IOException {
    dir = Files.createTempDirectory("orders-jarvis");
    ObjectMapper json = JarvisJson.mapper();
    var credentials = json.createArrayNode();
    for (ActorCredential c : List.of(ADMIN, HUMAN, AGENT, OUTSIDER)) {
      ObjectNode entry = credentials.addObject();
      entry.put("token_sha256", Credentials.sha256Hex(c.token()));
      entry.putArray("actors").add(c.actorId());
      entry.put("admin", c == ADMIN);
    }
    Path credentialsFile =
        Files.write(dir.resolve("credentials.json"), json.writeValueAsBytes(credentials));
    Path policy =
        Files.write(dir.resolve("policy.json"), json.writeValueAsBytes(SampleRecords.policy()));
    properties.add("jarvis.host.credentials-file", credentialsFile::toString);
    properties.add("jarvis.host.policies", policy::toString);
    // The conformance suite's fresh human Workers are governed by the one Policy (#37).
    properties.add("jarvis.host.policy-assignments[0]", () -> "policy-bounded-001=*");
    // The comparison needs no database: the service's own is left out, Jarvis keeps to memory.
    properties.add("spring.autoconfigure.exclude", () -> NO_DATABASE);
    properties.add("jarvis.host.store.kind", () -> "memory");
  }

  static final String NO_DATABASE =
      "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration,"
          + "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration";

  /** The same service without Jarvis, for comparing the service's own answers. */
  @BeforeAll
  static void startTheServiceWithoutJarvis() {
    withoutJarvis =
        new SpringApplicationBuilder(OrdersService.class)
            .properties(
                "server.port=0",
                "spring.autoconfigure.exclude="
                    + NO_DATABASE
                    + ",dev.jarvis.spring.boot.JarvisHostAutoConfiguration")
            .run();
  }

  @AfterAll
  static void stopIt() throws IOException {
    withoutJarvis.close();
    try (var files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  private static int portOf(ConfigurableApplicationContext context) {
    return Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
  }

  @Test
  void theConformanceSuitePassesWithOneCredentialPerRole() {
    ConformanceReport report =
        ConformanceSuite.run(
            ConformanceConfig.live(
                    URI.create("http://127.0.0.1:" + port + "/jarvis"),
                    new RoleCredentials(ADMIN, HUMAN, AGENT, Optional.of(OUTSIDER)))
                .runPrefix(RUN)
                .build());
    assertEquals(List.of(), report.failures());
    assertTrue(report.results().size() > 40, "ran " + report.results().size() + " checks");
    // The metrics listener saw the suite's calls.
    assertTrue(
        meters.find(JarvisHostMetrics.CALLS).tag("outcome", "accepted").counters().size() > 0);
    assertTrue(
        meters.find(JarvisHostMetrics.CALLS).tag("outcome", "refused").counters().size() > 0);
    // The service's own HTTP metric sees Jarvis requests by route template, not as uri=UNKNOWN.
    assertTrue(
        meters
                .find("http.server.requests")
                .tag("uri", "/jarvis/workers/{worker_id}")
                .timers()
                .size()
            > 0);
    // Timed per operation and outcome, tagged with the route template, not uri=UNKNOWN.
    assertTrue(
        meters
                .find(JarvisHostMetrics.REQUESTS)
                .tag("operation", "registerWorker")
                .tag("outcome", "accepted")
                .tag("uri", "/jarvis/workers/{worker_id}")
                .timers()
                .size()
            > 0,
        () ->
            meters.find(JarvisHostMetrics.REQUESTS).timers().stream()
                .map(t -> t.getId().toString())
                .toList()
                .toString());
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "GET|/api/orders/abc|",
        "GET|/api/broken|",
        "GET|/api/hr/workers/7|",
        "POST|/api/orders|{\"id\":\"o-1\",\"quantity\":2,\"note\":\"a field the record lacks\"}",
        "POST|/api/orders|{\"id\":",
        "GET|/api/nothing-here|",
        "DELETE|/api/orders|"
      })
  void theServicesOwnEndpointsAnswerExactlyAsWithoutJarvis(String method, String path, String body)
      throws Exception {
    HttpResponse<String> with = send(port, method, path, body);
    HttpResponse<String> without = send(portOf(withoutJarvis), method, path, body);
    assertEquals(without.statusCode(), with.statusCode(), with.body());
    assertEquals(headerNames(without.headers()), headerNames(with.headers()));
    assertEquals(comparable(without.body()), comparable(with.body()));
    assertTrue(with.headers().firstValue("Jarvis-Protocol-Version").isEmpty());
  }

  @Test
  void theHostsHealthIsPartOfTheServicesHealth() throws Exception {
    HttpResponse<String> health = send(port, "GET", "/actuator/health", null);
    assertEquals(200, health.statusCode(), health.body());
    assertTrue(health.body().contains("\"status\":\"UP\""), health.body());
    assertTrue(health.body().contains("\"jarvisHost\""), health.body());
    // The indicator is registered: the component is named after its bean.
    assertEquals(200, send(port, "GET", "/actuator/health/jarvisHost", null).statusCode());
  }

  /**
   * Under Tomcat, an error status that Jersey handed to {@code sendError} would be replaced by the
   * service's error page; the starter's servlet answers every one with its {@code ProtocolError}.
   */
  @ParameterizedTest(name = "{0} {1} answers {2} with a ProtocolError")
  @CsvSource(
      delimiter = '|',
      value = {
        "GET|/jarvis/work-sessions/ws-1|401",
        "DELETE|/jarvis/work-sessions/ws-1|405",
        "GET|/jarvis/nowhere|404"
      })
  void errorsUnderTheMountAreProtocolErrorsNotTheServicesErrorPages(
      String method, String path, int status) throws Exception {
    HttpResponse<String> answer = send(port, method, path, null);
    assertEquals(status, answer.statusCode(), answer.body());
    JsonNode error = new ObjectMapper().readTree(answer.body());
    assertTrue(error.hasNonNull("error_id") && error.hasNonNull("trace_id"), answer.body());
    assertEquals("v0.1", answer.headers().firstValue("Jarvis-Protocol-Version").orElseThrow());
  }

  private HttpResponse<String> send(int port, String method, String path, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .header("Accept", "application/json");
    if (body == null || body.isEmpty()) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request.header("Content-Type", "application/json");
      request.method(method, HttpRequest.BodyPublishers.ofString(body));
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Header names without those that differ per response (date, connection handling). */
  private static Set<String> headerNames(HttpHeaders headers) {
    Set<String> names =
        headers.map().keySet().stream()
            .map(n -> n.toLowerCase(java.util.Locale.ROOT))
            .collect(Collectors.toCollection(TreeSet::new));
    names.removeAll(Set.of("date", "connection", "keep-alive"));
    return names;
  }

  /** A body as compared: a JSON error's timestamp differs per response, nothing else may. */
  private static Object comparable(String body) {
    try {
      JsonNode tree = new ObjectMapper().readTree(body);
      if (tree instanceof ObjectNode object) {
        object.remove("timestamp");
      }
      return tree;
    } catch (IOException e) {
      return body;
    }
  }
}
