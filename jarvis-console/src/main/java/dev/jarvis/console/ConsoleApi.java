package dev.jarvis.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.client.HumanAnswer;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.JarvisInvalidResponseException;
import dev.jarvis.client.JarvisRefusalException;
import dev.jarvis.client.JarvisTransportException;
import dev.jarvis.client.JarvisUnsupportedCapabilityException;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.requestinbox.InboxPage;
import dev.jarvis.model.ApprovalScope;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.JarvisEventPayload;
import dev.jarvis.model.ProtocolError;
import dev.jarvis.model.Request;
import dev.jarvis.model.RequestStatus;
import dev.jarvis.model.Review;
import dev.jarvis.model.ReviewDecision;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The console's JSON API: each call runs as the caller, with the {@code Authorization} and {@code
 * Jarvis-Actor-Id} it sent, through a {@link JarvisClient} of its own against the host's own
 * address. So the host's rules decide everything (HostAuth, membership, who may review), exactly as
 * for that human's own client; the console holds no authority of its own and keeps nothing between
 * calls.
 */
final class ConsoleApi {

  static final String PREFIX = "/api/";
  static final int MAX_BODY_BYTES = 16 * 1024;

  /** The console's own fields (not the spec's). */
  static final String REQUESTS = "requests";

  static final String EVENTS = "events";
  static final String AUDIT = "audit";
  static final String WORK_SESSION = "work_session";
  static final String EXPIRES_IN_SECONDS = "expires_in_seconds";
  static final String EVENTS_SHOWN = "events_shown";

  /** The most events a timeline shows (the audit still reads them all). */
  static final int TIMELINE_EVENTS = 500;

  static final String NEXT_AFTER = InboxPage.NEXT_AFTER;

  /** The longest the page's inbox call waits for a new Request (the host allows 30 s). */
  static final int MAX_WAIT_SECONDS = 20;

  private static final Pattern INBOX_QUERY =
      Pattern.compile("after=(0|[1-9][0-9]{0,17})(?:&wait=(0|[1-9][0-9]?))?");

  private static final Pattern PENDING = Pattern.compile("work-sessions/([^/]+)/requests");
  private static final Pattern REVIEW =
      Pattern.compile("work-sessions/([^/]+)/requests/([^/]+)/review");
  private static final Pattern TIMELINE = Pattern.compile("work-sessions/([^/]+)/timeline");

  private final URI host;
  private final Clock clock;

  ConsoleApi(URI host, Clock clock) {
    this.host = host;
    this.clock = clock;
  }

  ConsoleAnswer answer(
      String method,
      String route,
      Optional<String> rawQuery,
      Function<String, Optional<String>> headers,
      byte[] body) {
    Optional<String> authorization = headers.apply("Authorization").filter(v -> !v.isBlank());
    Optional<String> actor = headers.apply(JarvisHeaders.ACTOR_ID).filter(v -> !v.isBlank());
    if (authorization.isEmpty() || actor.isEmpty()) {
      // Said without echoing what was sent.
      return problem(401, "sign in: the console sends your token and Actor id with every call");
    }
    Matcher m;
    try {
      if (route.equals("inbox")) {
        return method.equals("GET")
            ? inbox(authorization.get(), actor.get(), rawQuery.orElse("after=0"))
            : notAllowed("GET");
      }
      if ((m = PENDING.matcher(route)).matches()) {
        String ws = id(m.group(1));
        return method.equals("GET")
            ? as(authorization.get(), actor.get(), c -> pending(c, ws))
            : notAllowed("GET");
      }
      if ((m = TIMELINE.matcher(route)).matches()) {
        String ws = id(m.group(1));
        return method.equals("GET")
            ? as(authorization.get(), actor.get(), c -> timeline(c, ws))
            : notAllowed("GET");
      }
      if ((m = REVIEW.matcher(route)).matches()) {
        if (!method.equals("POST")) {
          return notAllowed("POST");
        }
        // Only a script of this origin sends JSON with these headers; a form cannot.
        if (!headers
            .apply("Content-Type")
            .map(v -> v.toLowerCase(java.util.Locale.ROOT).startsWith("application/json"))
            .orElse(false)) {
          return problem(415, "the console's API takes application/json");
        }
        if (body.length > MAX_BODY_BYTES) {
          return problem(413, "the answer is larger than " + MAX_BODY_BYTES + " bytes");
        }
        HumanAnswer answer = answerIn(body);
        String ws = id(m.group(1));
        String requestId = id(m.group(2));
        return as(authorization.get(), actor.get(), c -> review(c, ws, requestId, answer));
      }
    } catch (IllegalArgumentException e) {
      return problem(400, e.getMessage());
    }
    return problem(404, "no such console call");
  }

  /** Runs {@code call} with a client acting as the caller, closed afterwards. */
  private ConsoleAnswer as(
      String authorization, String actorId, Function<JarvisClient, ConsoleAnswer> call) {
    try (JarvisClient client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(host)
                .hostAuth(authorization)
                .actorId(actorId)
                .clock(clock)
                .userAgentSuffix("jarvis-console")
                .build())) {
      return call.apply(client);
    } catch (JarvisUnsupportedCapabilityException e) {
      return problem(501, "the host does not serve what the console needs: " + e.getMessage());
    } catch (JarvisRefusalException e) {
      return json(400, JarvisJson.mapper().valueToTree(e.error()));
    } catch (JarvisInvalidResponseException e) {
      return problem(502, "the host answered off the protocol: " + e.getMessage());
    } catch (JarvisTransportException e) {
      return problem(503, "the host could not be reached; try again");
    } catch (IllegalStateException e) {
      return problem(409, e.getMessage());
    }
  }

  /**
   * The caller's open Requests across WorkSessions ({@code request-inbox}), after waiting up to
   * {@code wait} seconds for one past {@code after} (a long poll: the page asks again at once with
   * the {@code next_after} it got).
   */
  private ConsoleAnswer inbox(String authorization, String actorId, String rawQuery) {
    Matcher q = INBOX_QUERY.matcher(rawQuery);
    if (!q.matches()) {
      throw new IllegalArgumentException("the inbox is asked as after=N&wait=S");
    }
    long after = Long.parseLong(q.group(1));
    int wait = q.group(2) == null ? 0 : Integer.parseInt(q.group(2));
    if (wait > MAX_WAIT_SECONDS) {
      throw new IllegalArgumentException("wait is at most " + MAX_WAIT_SECONDS + " seconds");
    }
    InboxRead read = new InboxRead(host, authorization, actorId);
    try {
      if (wait > 0) {
        InboxRead.Outcome waited = read.read(after, 1, Duration.ofSeconds(wait));
        if (!(waited instanceof InboxRead.Page)) {
          return outcome(waited);
        }
      }
      return outcome(read.all());
    } catch (java.io.IOException e) {
      return problem(503, "the host could not be read; try again");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return problem(503, "the console is stopping");
    }
  }

  private static ConsoleAnswer outcome(InboxRead.Outcome outcome) {
    if (outcome instanceof InboxRead.Page p) {
      ObjectNode json = JsonNodeFactory.instance.objectNode();
      ArrayNode requests = json.putArray(REQUESTS);
      p.page().requests().forEach(requests::add);
      json.put(NEXT_AFTER, p.page().nextAfter());
      return json(200, json);
    }
    if (outcome instanceof InboxRead.Refused r) {
      // The host's refusal as it gave it; its 429 and 5xx keep their meaning for the page.
      return json(r.status() >= 500 || r.status() == 429 ? r.status() : 400, r.error());
    }
    return problem(501, "the host does not serve the request-inbox capability");
  }

  /** The WorkSession's Requests still waiting for an answer, oldest first. */
  private ConsoleAnswer pending(JarvisClient client, String workSessionId) {
    Set<String> asked = new LinkedHashSet<>();
    try (Stream<JsonNode> events = client.events(workSessionId)) {
      events
          .filter(e -> "request.created".equals(e.path(JarvisEvent.JSON_PROPERTY_TYPE).asText()))
          .map(
              e ->
                  e.path(JarvisEvent.JSON_PROPERTY_PAYLOAD)
                      .path(JarvisEventPayload.JSON_PROPERTY_OBJECT_ID)
                      .asText())
          .forEach(asked::add);
    }
    List<Request> open = new ArrayList<>();
    for (String id : asked) {
      Request request = client.getRequest(workSessionId, id);
      if (request.getStatus() == RequestStatus.PENDING
          || request.getStatus() == RequestStatus.ACKNOWLEDGED) {
        open.add(request);
      }
    }
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    ArrayNode requests = json.putArray(REQUESTS);
    open.forEach(r -> requests.add(JarvisJson.mapper().<JsonNode>valueToTree(r)));
    return json(200, json);
  }

  /** Records the human's Review of the Request, built as every human-facing tool builds it. */
  private ConsoleAnswer review(
      JarvisClient client, String workSessionId, String requestId, HumanAnswer answer) {
    Request request = client.getRequest(workSessionId, requestId);
    Review recorded = client.recordReview(workSessionId, answer.reviewOf(client, request));
    return json(200, JarvisJson.mapper().valueToTree(recorded));
  }

  /**
   * The WorkSession, its events (the latest {@value #TIMELINE_EVENTS}) and the verdict of the
   * client's audit of its whole chain, read as the caller.
   */
  private ConsoleAnswer timeline(JarvisClient client, String workSessionId) {
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    json.set(WORK_SESSION, JarvisJson.mapper().valueToTree(client.getWorkSession(workSessionId)));
    List<JsonNode> events;
    try (Stream<JsonNode> all = client.events(workSessionId)) {
      events = all.toList();
    }
    ArrayNode shown = json.putArray(EVENTS);
    events.stream().skip(Math.max(0, events.size() - TIMELINE_EVENTS)).forEach(shown::add);
    json.put(EVENTS_SHOWN, shown.size());
    json.set(AUDIT, client.audit(workSessionId).toJson());
    return json(200, json);
  }

  /** The human's answer from the page's JSON; refused whole when any part is off. */
  private static HumanAnswer answerIn(byte[] body) {
    JsonNode json;
    try {
      json = JarvisJson.mapper().readTree(body);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("the answer is not JSON");
    }
    if (json == null || !json.isObject()) {
      throw new IllegalArgumentException("the answer is not a JSON object");
    }
    ReviewDecision decision;
    try {
      decision = ReviewDecision.fromValue(json.path(Review.JSON_PROPERTY_DECISION).asText());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the decision is approve, narrow or deny");
    }
    JsonNode reason = json.path(Review.JSON_PROPERTY_COMMENTS);
    Optional<String> comments =
        reason.isTextual() && !reason.asText().isBlank()
            ? Optional.of(reason.asText())
            : Optional.empty();
    if (decision == ReviewDecision.DENY) {
      return HumanAnswer.deny(comments);
    }
    JsonNode uses = json.path(ApprovalScope.JSON_PROPERTY_MAX_USES);
    JsonNode seconds = json.path(EXPIRES_IN_SECONDS);
    if (!uses.canConvertToLong() || !uses.isIntegralNumber()) {
      throw new IllegalArgumentException("max_uses is a whole number");
    }
    if (!seconds.canConvertToLong() || !seconds.isIntegralNumber()) {
      throw new IllegalArgumentException(EXPIRES_IN_SECONDS + " is a whole number of seconds");
    }
    return new HumanAnswer(decision, comments, uses.asLong(), Duration.ofSeconds(seconds.asLong()));
  }

  /** A path segment, percent-decoded ({@code +} is a plus here, not a space). */
  private static String id(String segment) {
    String id = URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
    if (id.isBlank() || id.length() > 200) {
      throw new IllegalArgumentException("not an id");
    }
    return id;
  }

  private static ConsoleAnswer notAllowed(String allowed) {
    ConsoleAnswer answer = problem(405, "method not allowed");
    java.util.Map<String, String> headers = new java.util.LinkedHashMap<>(answer.headers());
    headers.put("Allow", allowed);
    return new ConsoleAnswer(405, headers, answer.body());
  }

  /** A console-side refusal, shaped as a ProtocolError's reason so the page shows both alike. */
  static ConsoleAnswer problem(int status, String reason) {
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    json.put(ProtocolError.JSON_PROPERTY_REASON, reason);
    return json(status, json);
  }

  private static ConsoleAnswer json(int status, JsonNode json) {
    try {
      return new ConsoleAnswer(
          status,
          ConsoleHeaders.with("application/json"),
          JarvisJson.mapper().writeValueAsBytes(json));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
