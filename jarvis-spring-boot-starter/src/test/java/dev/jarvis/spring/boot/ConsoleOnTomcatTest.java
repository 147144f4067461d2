package dev.jarvis.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.console.ConsoleHeaders;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.host.Credentials;
import dev.jarvis.host.HostConfig;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.Request;
import dev.jarvis.model.RequestStatus;
import dev.jarvis.model.RiskClass;
import dev.jarvis.model.WorkerType;
import dev.jarvis.samples.SampleRecords;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code jarvis.host.console.enabled=true} on a real embedded Tomcat: the page at {@code
 * /jarvis/console/} with the console's security headers, and its API answering a Request as the
 * human whose token it was given (and only as that human).
 */
@SpringBootTest(
    classes = ConsoleOnTomcatTest.Service.class,
    webEnvironment = WebEnvironment.RANDOM_PORT)
class ConsoleOnTomcatTest {

  static final Path DIR = Path.of("target", "console-" + UUID.randomUUID());
  static final String ADMIN_TOKEN = "console-admin-" + UUID.randomUUID();
  static final String HUMAN_TOKEN = "console-human-" + UUID.randomUUID();
  static final String AGENT_TOKEN = "console-agent-" + UUID.randomUUID();
  static final String HUMAN = "actor-human-console-1";
  static final String AGENT = "actor-agent-console-1";

  /** A service on Tomcat whose chain lets every request through to the host, which decides. */
  @SpringBootConfiguration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class Service {
    @Bean
    SecurityFilterChain open(HttpSecurity http) throws Exception {
      return http.authorizeHttpRequests(requests -> requests.anyRequest().permitAll())
          .csrf(csrf -> csrf.disable())
          .build();
    }
  }

  @Autowired WebServerApplicationContext context;

  @DynamicPropertySource
  static void console(DynamicPropertyRegistry registry) throws IOException {
    Files.createDirectories(DIR);
    Path credentials = DIR.resolve("credentials.json");
    Files.writeString(
        credentials,
        "[{\"token_sha256\": \"%s\", \"actors\": [\"%s\"], \"admin\": true},"
                .formatted(Credentials.sha256Hex(ADMIN_TOKEN), HostConfig.DEFAULT_ADMIN_ACTOR_ID)
            + " {\"token_sha256\": \"%s\", \"actors\": [\"%s\"]},"
                .formatted(Credentials.sha256Hex(HUMAN_TOKEN), HUMAN)
            + " {\"token_sha256\": \"%s\", \"actors\": [\"%s\"]}]"
                .formatted(Credentials.sha256Hex(AGENT_TOKEN), AGENT));
    Path policy = Files.writeString(DIR.resolve("policy.json"), SampleRecords.policy().toString());
    registry.add("jarvis.host.credentials-file", credentials::toString);
    registry.add("jarvis.host.policies", policy::toString);
    registry.add("jarvis.host.console.enabled", () -> "true");
    registry.add("jarvis.host.policy-assignments[0]", () -> "policy-bounded-001=*");
    registry.add("jarvis.host.agent-serves[0]", () -> "w-agent-console=w-human-console");
  }

  private final HttpClient http = HttpClient.newHttpClient();

  private URI base() {
    return URI.create("http://127.0.0.1:" + context.getWebServer().getPort() + "/jarvis/");
  }

  private HttpResponse<String> send(
      String method, String path, Map<String, String> headers, String body) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(base().resolve(path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(request::header);
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void thePageIsServedUnderTheJarvisPathWithTheConsolesHeaders() throws Exception {
    HttpResponse<String> page = send("GET", "console/", Map.of(), null);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("<script type=\"module\" src=\"console.js\"></script>");
    ConsoleHeaders.security()
        .forEach((name, value) -> assertThat(page.headers().firstValue(name)).contains(value));
    assertThat(send("GET", "console/console.js", Map.of(), null).statusCode()).isEqualTo(200);
    HttpResponse<String> bare = send("GET", "console", Map.of(), null);
    assertThat(bare.statusCode()).isEqualTo(308);
    assertThat(bare.headers().firstValue("Location")).contains("/jarvis/console/");
  }

  @Test
  void theConsolesApiAnswersARequestAsTheSignedInHumanOnly() throws Exception {
    try (JarvisClient admin =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(base())
                .hostAuthPerActor(
                    actor ->
                        java.util.Optional.of(
                            "Bearer "
                                + (actor.equals(HUMAN)
                                    ? HUMAN_TOKEN
                                    : actor.equals(AGENT) ? AGENT_TOKEN : ADMIN_TOKEN)))
                .actorId(HostConfig.DEFAULT_ADMIN_ACTOR_ID)
                .build())) {
      admin.registerWorker(admin.records().worker("w-human-console", WorkerType.HUMAN, "reviewer"));
      admin.registerWorker(
          admin.records().worker("w-agent-console", WorkerType.AGENT, "assistant"));
      admin.registerActor(admin.records().actor(HUMAN, "w-human-console", ActorType.HUMAN));
      admin.registerActor(admin.records().actor(AGENT, "w-agent-console", ActorType.AGENT));
      JarvisClient human = admin.as(HUMAN);
      String ws =
          human
              .createWorkSession(
                  human
                      .records()
                      .workSession(
                          "Console on Tomcat.",
                          "w-human-console",
                          "w-agent-console",
                          SampleRecords.policy().path("id").asText()))
              .getId();
      JarvisClient agent = admin.as(AGENT);
      PolicyDecision decision =
          agent.recordPolicyDecision(
              ws,
              agent
                  .records()
                  .policyDecision(
                      ws,
                      SampleRecords.policy().path("id").asText(),
                      ProtocolRecords.action(
                          "fetch_external_source", "source:docs", "scope:source-collection"),
                      RiskClass.MEDIUM,
                      PolicyDecisionResult.REVIEW_REQUIRED,
                      "Needs review.")
                  .requestId(agent.records().newId("req")));
      Request request =
          agent.createRequest(
              ws,
              agent
                  .records()
                  .request(decision, "w-agent-console", "w-human-console", Duration.ofHours(1)));

      String pending = "console/api/work-sessions/" + ws + "/requests";
      HttpResponse<String> listed =
          send(
              "GET",
              pending,
              Map.of("Authorization", "Bearer " + HUMAN_TOKEN, "Jarvis-Actor-Id", HUMAN),
              null);
      assertThat(listed.statusCode()).isEqualTo(200);
      assertThat(listed.body()).contains(request.getId());

      String review =
          "console/api/work-sessions/" + ws + "/requests/" + request.getId() + "/review";
      String approve = "{\"decision\":\"approve\",\"max_uses\":2,\"expires_in_seconds\":600}";
      HttpResponse<String> byAgent =
          send(
              "POST",
              review,
              Map.of(
                  "Authorization",
                  "Bearer " + AGENT_TOKEN,
                  "Jarvis-Actor-Id",
                  AGENT,
                  "Content-Type",
                  "application/json"),
              approve);
      assertThat(byAgent.statusCode()).isEqualTo(400);
      assertThat(agent.getRequest(ws, request.getId()).getStatus())
          .isEqualTo(RequestStatus.PENDING);

      HttpResponse<String> byHuman =
          send(
              "POST",
              review,
              Map.of(
                  "Authorization",
                  "Bearer " + HUMAN_TOKEN,
                  "Jarvis-Actor-Id",
                  HUMAN,
                  "Content-Type",
                  "application/json"),
              approve);
      assertThat(byHuman.statusCode()).as(byHuman.body()).isEqualTo(200);
      assertThat(agent.getRequest(ws, request.getId()).getStatus())
          .isEqualTo(RequestStatus.APPROVED);
    }
  }
}
