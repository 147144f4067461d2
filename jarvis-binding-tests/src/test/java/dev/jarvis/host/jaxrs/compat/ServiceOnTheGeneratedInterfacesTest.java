package dev.jarvis.host.jaxrs.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.conformance.CheckResult;
import dev.jarvis.conformance.ConformanceConfig;
import dev.jarvis.conformance.ConformanceReport;
import dev.jarvis.conformance.ConformanceSuite;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.host.jaxrs.resources.EventLogResource;
import dev.jarvis.host.jaxrs.resources.ProtocolResource;
import dev.jarvis.host.jaxrs.resources.WorkSessionsResource;
import dev.jarvis.model.Policy;
import dev.jarvis.samples.SampleRecords;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A service that serves the protocol through resource classes of its own on the generated
 * interfaces, and holds a Policy of its own under which every action needs review, as a team on
 * Spring Boot 3.5 runs it: the binding declares only the capabilities it serves, and the
 * conformance suite, given the Policy, passes every check it can run and skips the others saying
 * why, never failing the host for what the suite assumed.
 */
class ServiceOnTheGeneratedInterfacesTest {

  /** The service's Policy: its agents act only with a human's review. */
  static final String POLICY =
      """
      {"id": "policy-orders-reviewed", "owner_worker_id": "worker-orders-lead",
       "created_by_actor_id": "actor-orders-lead", "autonomy_level": "execute_with_review",
       "allowed_actions": [{"action": "refund_order", "scope_ref": "scope:orders"}],
       "denied_actions": [{"action": "delete_order"}], "review_required_actions": [],
       "risk_classes": ["low", "medium", "high"], "escalation_rules": [],
       "created_at": "2026-01-01T00:00:00Z"}
      """;

  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private JerseyApplication app;

  @AfterEach
  void stop() {
    if (app != null) {
      app.close();
    }
  }

  /** The ready-made resources, but the service's own class for the WorkSessions operations. */
  private static List<Class<?>> ownResources(boolean withEventLog) {
    List<Class<?>> resources = new ArrayList<>(ProtocolResource.all());
    resources.remove(WorkSessionsResource.class);
    resources.add(OwnWorkSessionsResource.class);
    if (withEventLog) {
      resources.add(EventLogResource.class);
    }
    return resources;
  }

  private static JsonNode policy() throws Exception {
    return JarvisJson.mapper().readTree(POLICY);
  }

  private ConformanceReport conformance() throws Exception {
    return ConformanceSuite.run(
        ConformanceConfig.live(app.base(), JerseyApplication.TOKEN)
            .clock(JerseyApplication.CLOCK)
            .policy(JarvisJson.mapper().treeToValue(policy(), Policy.class))
            .build());
  }

  /** A read as {@code host-admin}, or as the Actor the headers name. */
  private HttpResponse<String> get(String path, String... headers) throws Exception {
    Map<String, String> sent = new LinkedHashMap<>();
    sent.put("Jarvis-Actor-Id", "host-admin");
    for (int i = 0; i < headers.length; i += 2) {
      sent.put(headers[i], headers[i + 1]);
    }
    HttpRequest.Builder request =
        HttpRequest.newBuilder(app.base().resolve(URI.create(path)))
            .header("Authorization", "Bearer " + JerseyApplication.TOKEN)
            .header("Jarvis-Protocol-Version", "v0.1");
    sent.forEach(request::header);
    return HTTP.send(request.GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private void register(String path, JsonNode record) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(app.base().resolve(URI.create(path)))
            .header("Authorization", "Bearer " + JerseyApplication.TOKEN)
            .header("Jarvis-Protocol-Version", "v0.1")
            .header("Jarvis-Actor-Id", "host-admin")
            .header("Jarvis-Idempotency-Key", "key-" + path)
            .header("Jarvis-Request-Timestamp", now())
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(record.toString()))
            .build();
    HttpResponse<String> answer = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    assertEquals(200, answer.statusCode(), answer.body());
  }

  private static String now() {
    return RequestTimestamp.format(JerseyApplication.CLOCK.instant());
  }

  @Test
  void withoutAnEventLogResourceTheServiceDoesNotDeclareEventLogAndTheSuiteSkipsItsChecks()
      throws Exception {
    app = new JerseyApplication("/jarvis", ownResources(false), List.of(policy()));

    HttpResponse<String> events = get("work-sessions/ws-1/events");
    assertEquals(405, events.statusCode(), events.body());
    assertEquals(
        "cursor-headers", events.headers().firstValue("Jarvis-Host-Capabilities").orElseThrow());
    ConformanceReport report = conformance();

    assertEquals(List.of(), report.failures());
    List<CheckResult> eventLog =
        report.results().stream().filter(r -> r.group().equals("event-log")).toList();
    assertEquals(5, eventLog.size());
    for (CheckResult check : eventLog) {
      assertTrue(check.skipped(), check.line());
      assertTrue(check.detail().contains("does not declare event-log"), check.line());
    }
    assertTrue(
        report
            .result("every refusal is HTTP 400 with a valid ProtocolError")
            .orElseThrow()
            .passed());
    CheckResult allowed =
        report
            .result(
                "a second agent action under one allow decision is refused with"
                    + " missing_policy_decision")
            .orElseThrow();
    assertTrue(allowed.skipped(), allowed.line());
    assertTrue(allowed.detail().contains("execute_with_review"), allowed.line());
  }

  @Test
  void oneRegisteredResourceRoutesTheEventLogAndTheServiceDeclaresAndServesIt() throws Exception {
    app = new JerseyApplication("/jarvis", ownResources(true), List.of(policy()));

    HttpResponse<String> page = get("work-sessions/ws-1/events");
    assertEquals(400, page.statusCode(), page.body());
    assertEquals(
        "cursor-headers, event-log",
        page.headers().firstValue("Jarvis-Host-Capabilities").orElseThrow());
    ConformanceReport report = conformance();

    assertEquals(List.of(), report.failures());
    List<CheckResult> eventLog =
        report.results().stream().filter(r -> r.group().equals("event-log")).toList();
    assertEquals(5, eventLog.size());
    assertTrue(eventLog.stream().allMatch(CheckResult::passed), eventLog.toString());
    // appendJarvisEvent, on the same path, is still the service's own class's.
    assertTrue(
        report
            .result("appendJarvisEvent accepts an event that continues the chain")
            .orElseThrow()
            .passed());
  }

  @Test
  void aReadRequiringTheEventLogOfAServiceWithoutItIsRefusedUnsupportedCapability()
      throws Exception {
    app = new JerseyApplication("", ownResources(false), List.of(policy()));
    register("workers/w-human", SampleRecords.worker("w-human", "human"));
    register("actors/a-human", SampleRecords.actor("a-human", "w-human", "human", now()));

    HttpResponse<String> read =
        get(
            "work-sessions/ws-1",
            "Jarvis-Actor-Id",
            "a-human",
            "Jarvis-Required-Capabilities",
            "event-log");

    assertEquals(400, read.statusCode(), read.body());
    assertEquals(
        "unsupported_capability",
        JarvisJson.mapper().readTree(read.body()).path("error_id").asText());
  }
}
