package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.console.ConsoleHeaders;
import dev.jarvis.model.Request;
import dev.jarvis.model.RequestStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The review console over plain HTTP, no browser: the security headers on every answer, a page with
 * no inline script or style and a script that never writes markup, and an API that acts only as the
 * caller (a human cannot answer another's Request, an agent cannot answer its own), takes JSON only
 * and never echoes a token.
 */
class ConsoleOverHttpTest {

  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final ConsoleHost host = new ConsoleHost();

  @AfterEach
  void close() {
    host.close();
  }

  private Answer send(String method, String path, Map<String, String> headers, String body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(host.page().resolve(path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(request::header);
    try {
      return Answer.of(http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static Map<String, String> as(String actor) {
    return Map.of(
        "Authorization", "Bearer " + ConsoleHost.TOKENS.get(actor), "Jarvis-Actor-Id", actor);
  }

  private static Map<String, String> json(String actor) {
    return Map.of(
        "Authorization",
        "Bearer " + ConsoleHost.TOKENS.get(actor),
        "Jarvis-Actor-Id",
        actor,
        "Content-Type",
        "application/json");
  }

  @Test
  void everyAnswerCarriesTheStrictSecurityHeaders() {
    List<Answer> answers =
        List.of(
            send("GET", "", Map.of(), null),
            send("GET", "console.js", Map.of(), null),
            send("GET", "console.css", Map.of(), null),
            send("GET", "nothing-here", Map.of(), null),
            send("POST", "", Map.of(), "x"),
            send("GET", "api/work-sessions/ws-1/requests", Map.of(), null),
            send("GET", "api/work-sessions/ws-1/requests", as(ConsoleHost.HUMAN), null));
    assertEquals(
        List.of(200, 200, 200, 404, 405, 401, 400), answers.stream().map(Answer::status).toList());
    for (Answer a : answers) {
      ConsoleHeaders.security()
          .forEach(
              (name, value) ->
                  assertEquals(
                      value,
                      a.raw().headers().firstValue(name).orElse(null),
                      name + " on " + a.raw().uri()));
    }
    assertEquals(
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self';"
            + " img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        answers.get(0).raw().headers().firstValue("Content-Security-Policy").orElseThrow());
    assertEquals(
        "text/javascript; charset=utf-8",
        answers.get(1).raw().headers().firstValue("Content-Type").orElseThrow());
  }

  @Test
  void theConsoleWithoutATrailingSlashRedirectsToThePage() {
    Answer a = send("GET", "/console", Map.of(), null);
    assertEquals(308, a.status());
    assertEquals("/console/", a.raw().headers().firstValue("Location").orElseThrow());
  }

  @Test
  void thePageHasNoInlineScriptOrStyleAndItsScriptNeverWritesMarkup() {
    String html = send("GET", "", Map.of(), null).text();
    assertFalse(
        Pattern.compile("<script(?![^>]*\\bsrc=)", Pattern.CASE_INSENSITIVE).matcher(html).find());
    assertFalse(
        Pattern.compile("<style|\\sstyle=|\\son[a-z]+=", Pattern.CASE_INSENSITIVE)
            .matcher(html)
            .find());
    assertFalse(
        Pattern.compile("(https?:)?//", Pattern.CASE_INSENSITIVE)
            .matcher(html.replace("<!DOCTYPE html>", ""))
            .find(),
        "nothing from elsewhere");
    String js = send("GET", "console.js", Map.of(), null).text();
    for (String sink :
        List.of(
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
            "eval(",
            "new Function",
            "localStorage",
            "sessionStorage",
            "document.cookie")) {
      assertFalse(js.contains(sink), "console.js uses " + sink);
    }
  }

  @Test
  void theApiAsksForCredentialsWithoutEchoingWhatWasSent() {
    Answer a =
        send(
            "GET",
            "api/work-sessions/ws-1/requests",
            Map.of("Jarvis-Actor-Id", "actor-<script>"),
            null);
    assertEquals(401, a.status());
    assertFalse(a.text().contains("<script>"));
    Answer wrong =
        send(
            "GET",
            "api/work-sessions/ws-1/requests",
            Map.of("Authorization", "Bearer not-a-token-xyz", "Jarvis-Actor-Id", ConsoleHost.HUMAN),
            null);
    assertEquals(400, wrong.status());
    assertFalse(wrong.text().contains("not-a-token-xyz"));
  }

  @Test
  void anAnswerSentAsAFormIsRefusedSoNoOtherSiteCanPostOne() {
    String ws = host.workSession(ConsoleHost.HUMAN, ConsoleHost.HUMAN_WORKER);
    Request request =
        host.ask(ws, ConsoleHost.HUMAN_WORKER, "source:docs", "R.", Duration.ofHours(1));
    Map<String, String> form =
        Map.of(
            "Authorization",
            "Bearer " + ConsoleHost.TOKENS.get(ConsoleHost.HUMAN),
            "Jarvis-Actor-Id",
            ConsoleHost.HUMAN,
            "Content-Type",
            "text/plain");
    Answer a =
        send(
            "POST",
            "api/work-sessions/" + ws + "/requests/" + request.getId() + "/review",
            form,
            "{\"decision\":\"approve\",\"max_uses\":1,\"expires_in_seconds\":60}");
    assertEquals(415, a.status());
    assertEquals(
        RequestStatus.PENDING,
        host.as(ConsoleHost.HUMAN).getRequest(ws, request.getId()).getStatus());
  }

  @Test
  void aHumanCannotAnswerAnotherHumansRequestThroughTheConsoleAndAnAgentNotItsOwn() {
    String ws = host.workSession(ConsoleHost.HUMAN, ConsoleHost.HUMAN_WORKER);
    Request request =
        host.ask(ws, ConsoleHost.HUMAN_WORKER, "source:docs", "R.", Duration.ofHours(1));
    String path = "api/work-sessions/" + ws + "/requests/" + request.getId() + "/review";
    String approve = "{\"decision\":\"approve\",\"max_uses\":5,\"expires_in_seconds\":3600}";

    Answer other = send("POST", path, json(ConsoleHost.OTHER_HUMAN), approve);
    assertEquals(400, other.status());
    assertEquals("unauthorized_actor", other.json().path("error_id").asText());
    assertEquals(
        400,
        send("GET", "api/work-sessions/" + ws + "/requests", as(ConsoleHost.OTHER_HUMAN), null)
            .status());
    assertEquals(
        400,
        send("GET", "api/work-sessions/" + ws + "/timeline", as(ConsoleHost.OTHER_HUMAN), null)
            .status());
    Answer agent = send("POST", path, json(ConsoleHost.AGENT), approve);
    assertEquals(400, agent.status(), agent.text());
    // A token of one Actor does not act as another.
    Map<String, String> borrowed =
        Map.of(
            "Authorization",
            "Bearer " + ConsoleHost.TOKENS.get(ConsoleHost.OTHER_HUMAN),
            "Jarvis-Actor-Id",
            ConsoleHost.HUMAN,
            "Content-Type",
            "application/json");
    assertEquals(400, send("POST", path, borrowed, approve).status());
    assertEquals(
        RequestStatus.PENDING,
        host.as(ConsoleHost.HUMAN).getRequest(ws, request.getId()).getStatus());

    // Positive control: the human it was asked of answers it.
    Answer mine = send("POST", path, json(ConsoleHost.HUMAN), approve);
    assertEquals(200, mine.status(), mine.text());
    assertEquals(5, mine.json().path("approval_scope").path("max_uses").asInt());
    assertEquals(
        RequestStatus.APPROVED,
        host.as(ConsoleHost.HUMAN).getRequest(ws, request.getId()).getStatus());
  }

  @Test
  void anAnswerOutsideItsBoundsIsRefusedBeforeTheHostIsAsked() {
    String ws = host.workSession(ConsoleHost.HUMAN, ConsoleHost.HUMAN_WORKER);
    Request request =
        host.ask(ws, ConsoleHost.HUMAN_WORKER, "source:docs", "R.", Duration.ofHours(1));
    String path = "api/work-sessions/" + ws + "/requests/" + request.getId() + "/review";
    for (String body :
        List.of(
            "{\"decision\":\"approve\",\"max_uses\":0,\"expires_in_seconds\":60}",
            "{\"decision\":\"approve\",\"max_uses\":1,\"expires_in_seconds\":0}",
            "{\"decision\":\"approve\",\"max_uses\":1,\"expires_in_seconds\":999999999}",
            "{\"decision\":\"approve\",\"max_uses\":1.5,\"expires_in_seconds\":60}",
            "{\"decision\":\"takeover\"}",
            "{\"decision\":\"approve\"}",
            "[]",
            "not json")) {
      Answer a = send("POST", path, json(ConsoleHost.HUMAN), body);
      assertEquals(400, a.status(), body + " → " + a.text());
      assertTrue(a.json().path("reason").isTextual());
    }
    assertEquals(
        RequestStatus.PENDING,
        host.as(ConsoleHost.HUMAN).getRequest(ws, request.getId()).getStatus());
  }

  @Test
  void theInboxListsOnlyTheCallersOwnOpenRequestsAndRefusesAMalformedAsk() {
    String mine = host.workSession(ConsoleHost.HUMAN, ConsoleHost.HUMAN_WORKER);
    String theirs = host.workSession(ConsoleHost.OTHER_HUMAN, ConsoleHost.OTHER_HUMAN_WORKER);
    Request my = host.ask(mine, ConsoleHost.HUMAN_WORKER, "source:docs", "M.", Duration.ofHours(1));
    Request their =
        host.ask(theirs, ConsoleHost.OTHER_HUMAN_WORKER, "source:docs", "T.", Duration.ofHours(1));

    Answer inbox = send("GET", "api/inbox?after=0&wait=0", as(ConsoleHost.HUMAN), null);
    assertEquals(200, inbox.status(), inbox.text());
    assertEquals(1, inbox.json().path("requests").size());
    assertEquals(my.getId(), inbox.json().path("requests").path(0).path("id").asText());
    assertTrue(inbox.json().path("next_after").asLong() > 0);
    Answer theirInbox = send("GET", "api/inbox?after=0", as(ConsoleHost.OTHER_HUMAN), null);
    assertEquals(their.getId(), theirInbox.json().path("requests").path(0).path("id").asText());
    assertEquals(1, theirInbox.json().path("requests").size());
    // The agent has no inbox: the host admits only human Actors to it.
    assertEquals(400, send("GET", "api/inbox?after=0", as(ConsoleHost.AGENT), null).status());

    for (String query :
        List.of("after=-1", "after=01", "after=0&wait=21", "wait=5", "after=0&wait=5&x=1")) {
      assertEquals(
          400, send("GET", "api/inbox?" + query, as(ConsoleHost.HUMAN), null).status(), query);
    }
  }
}
