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
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.policy.PolicyEvaluation;
import dev.jarvis.core.requestinbox.InboxPage;
import dev.jarvis.core.requestinbox.RequestInbox;
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
import java.util.Map;
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
 * calls. A caller signed in by the service's own login ({@link SessionCaller}) is acted for with
 * its session instead of a bearer token, and its state-changing calls need the service's CSRF
 * token.
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
  static final String REVIEW_RULES = "review_rules";
  static final String REQUEST_ID = "request_id";
  static final String RULE = "rule";
  static final String RESULT = "result";
  static final String REASON = "reason";
  static final String MATCHED = "matched";
  static final String ACTORS = "actors";
  static final String CSRF_HEADER = "csrf_header";
  static final String CSRF_TOKEN = "csrf_token";

  /** What waits for a human: not yet answered, seen or not. */
  static final Set<String> OPEN =
      new LinkedHashSet<>(
          List.of(RequestStatus.PENDING.getValue(), RequestStatus.ACKNOWLEDGED.getValue()));

  /** How many open Requests one console lists at most (a page of the read). */
  static final int MOST = RequestInbox.MAX_LIMIT;

  /** The most events a timeline shows (the audit still reads them all). */
  static final int TIMELINE_EVENTS = 500;

  static final String NEXT_AFTER = InboxPage.NEXT_AFTER;

  /**
   * The longest the page's inbox call waits for a new Request (the host allows 30 s). It fits the
   * client's default attempt timeout (30 s; a long poll must end 5 s before it), so {@code
   * client.inbox} never shortens it.
   */
  static final int MAX_WAIT_SECONDS = 20;

  private static final Pattern INBOX_QUERY =
      Pattern.compile("after=(0|[1-9][0-9]{0,17})(?:&wait=(0|[1-9][0-9]?))?");

  private static final Pattern PENDING = Pattern.compile("work-sessions/([^/]+)/requests");
  private static final Pattern REVIEW =
      Pattern.compile("work-sessions/([^/]+)/requests/([^/]+)/review");
  private static final Pattern TIMELINE = Pattern.compile("work-sessions/([^/]+)/timeline");

  private final URI host;
  private final Clock clock;
  private final ReviewRules rules;

  ConsoleApi(URI host, Clock clock, ReviewRules rules) {
    this.host = host;
    this.clock = clock;
    this.rules = rules;
  }

  /** How the console acts for one caller towards the host: the headers that carry who it is. */
  private record Caller(Optional<String> authorization, Map<String, String> session) {}

  ConsoleAnswer answer(
      String method,
      String route,
      Optional<String> rawQuery,
      Function<String, Optional<String>> headers,
      byte[] body,
      Optional<SessionCaller> session) {
    Optional<String> authorization = headers.apply("Authorization").filter(v -> !v.isBlank());
    Optional<String> actor = headers.apply(JarvisHeaders.ACTOR_ID).filter(v -> !v.isBlank());
    if (route.equals("session")) {
      return method.equals("GET") ? session(session) : notAllowed("GET");
    }
    // A bearer token the page sent wins over a session: a cross-site request cannot send one.
    Optional<Caller> caller =
        authorization.isPresent()
            ? Optional.of(new Caller(authorization, Map.of()))
            : session.map(s -> new Caller(Optional.empty(), s.forward()));
    if (caller.isEmpty() || actor.isEmpty()) {
      // Said without echoing what was sent.
      return problem(401, "sign in: the console sends your token and Actor id with every call");
    }
    Matcher m;
    try {
      if (route.equals("inbox")) {
        if (!method.equals("GET")) {
          return notAllowed("GET");
        }
        InboxAsk ask = inboxAsk(rawQuery.orElse("after=0"));
        return as(caller.get(), actor.get(), c -> inbox(c, ask));
      }
      if ((m = PENDING.matcher(route)).matches()) {
        String ws = id(m.group(1));
        return method.equals("GET")
            ? as(caller.get(), actor.get(), c -> pending(c, ws))
            : notAllowed("GET");
      }
      if ((m = TIMELINE.matcher(route)).matches()) {
        String ws = id(m.group(1));
        return method.equals("GET")
            ? as(caller.get(), actor.get(), c -> timeline(c, ws))
            : notAllowed("GET");
      }
      if ((m = REVIEW.matcher(route)).matches()) {
        if (!method.equals("POST")) {
          return notAllowed("POST");
        }
        // A session's cookie rides along with any request to this origin, a forged one too: only
        // the service's CSRF token, which a page of another origin cannot read, tells them apart.
        if (authorization.isEmpty() && !session.get().csrfTokenSent()) {
          return problem(403, "the answer lacks the CSRF token of your session; reload the page");
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
        return as(caller.get(), actor.get(), c -> review(c, ws, requestId, answer));
      }
    } catch (IllegalArgumentException e) {
      return problem(400, e.getMessage());
    }
    return problem(404, "no such console call");
  }

  /**
   * Who the service's login signed in: the Actors it may act as and the CSRF token the page sends
   * with each answer. Read by the page itself (same origin): a page of another origin cannot read
   * this answer, so it cannot learn the token.
   */
  private static ConsoleAnswer session(Optional<SessionCaller> session) {
    if (session.isEmpty()) {
      return problem(401, "no signed-in session: sign in with your token");
    }
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    ArrayNode actors = json.putArray(ACTORS);
    session.get().actorIds().stream().sorted().forEach(actors::add);
    json.put(CSRF_HEADER, session.get().csrfHeader());
    json.put(CSRF_TOKEN, session.get().csrfToken());
    return json(200, json);
  }

  /** Runs {@code call} with a client acting as the caller, closed afterwards. */
  private ConsoleAnswer as(
      Caller caller, String actorId, Function<JarvisClient, ConsoleAnswer> call) {
    JarvisClientOptions.Builder options =
        JarvisClientOptions.builder()
            .baseUri(host)
            .actorId(actorId)
            .clock(clock)
            .userAgentSuffix("jarvis-console");
    caller.authorization().ifPresent(options::hostAuth);
    if (!caller.session().isEmpty()) {
      options.addPerAttemptPolicy(
          JarvisPolicy.named(
              "console-session",
              (request, next) -> next.send(request.withHeaders(caller.session()))));
    }
    try (JarvisClient client = JarvisClient.create(options.build())) {
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

  /** The page's inbox call: the cursor it has, and how long to wait for a Request past it. */
  private record InboxAsk(long after, int waitSeconds) {}

  private static InboxAsk inboxAsk(String rawQuery) {
    Matcher q = INBOX_QUERY.matcher(rawQuery);
    if (!q.matches()) {
      throw new IllegalArgumentException("the inbox is asked as after=N&wait=S");
    }
    int wait = q.group(2) == null ? 0 : Integer.parseInt(q.group(2));
    if (wait > MAX_WAIT_SECONDS) {
      throw new IllegalArgumentException("wait is at most " + MAX_WAIT_SECONDS + " seconds");
    }
    return new InboxAsk(Long.parseLong(q.group(1)), wait);
  }

  /**
   * The caller's open Requests across WorkSessions ({@code request-inbox}, through {@code
   * client.inbox}), after waiting up to the asked seconds for one past the cursor (a long poll: the
   * page asks again at once with the {@code next_after} it got).
   *
   * <p>The client's read, not one of the console's own: the same page checks (each Request of an
   * asked status, all for one human, the cursor moving forward) and the same answers to failures as
   * every other call here. The client retries a host's 429 and 502 to 504 before the console
   * answers 503, where the console's own read passed them through at once; for a human's page,
   * which backs off and asks again either way, the retries only smooth a busy host.
   */
  private ConsoleAnswer inbox(JarvisClient client, InboxAsk ask) {
    if (ask.waitSeconds() > 0) {
      client.inbox(
          new RequestInbox.Query(OPEN, ask.after(), 1, Duration.ofSeconds(ask.waitSeconds())));
    }
    InboxPage all = client.inbox(new RequestInbox.Query(OPEN, 0, MOST, Duration.ZERO));
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    ArrayNode requests = json.putArray(REQUESTS);
    all.requests().forEach(requests::add);
    json.put(NEXT_AFTER, all.nextAfter());
    json.set(REVIEW_RULES, reviewRules(all.requests()));
    return json(200, json);
  }

  /**
   * The rule of the Policy that required each Request's review, evaluated by the host, for Requests
   * the host has just listed to this caller only. A Request the host has no evaluation for is left
   * out (the page says so).
   */
  private ArrayNode reviewRules(List<JsonNode> requests) {
    ArrayNode found = JsonNodeFactory.instance.arrayNode();
    for (JsonNode request : requests) {
      String ws = request.path(Request.JSON_PROPERTY_WORK_SESSION_ID).asText();
      String id = request.path(Request.JSON_PROPERTY_ID).asText();
      Optional<PolicyEvaluation> evaluation = rules.of(ws, id);
      if (evaluation.isEmpty()) {
        continue;
      }
      ObjectNode rule = found.addObject();
      rule.put(Request.JSON_PROPERTY_WORK_SESSION_ID, ws);
      rule.put(REQUEST_ID, id);
      rule.put(RESULT, evaluation.get().result().getValue());
      rule.put(RULE, evaluation.get().rule());
      rule.put(REASON, evaluation.get().reason());
      ArrayNode matched = rule.putArray(MATCHED);
      evaluation.get().matched().forEach(matched::add);
    }
    return found;
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
    List<JsonNode> listed = new ArrayList<>();
    requests.forEach(listed::add);
    json.set(REVIEW_RULES, reviewRules(listed));
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
