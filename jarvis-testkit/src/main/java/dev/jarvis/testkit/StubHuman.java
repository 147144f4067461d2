package dev.jarvis.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.model.Actor;
import dev.jarvis.model.ApprovalScope;
import dev.jarvis.model.Request;
import dev.jarvis.model.Review;
import dev.jarvis.model.ReviewDecision;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A human Actor of the stub host, answering Requests for a test: {@code
 * stub.human("actor-human-1").approve("ws-1", "req-1")}. Every answer is a real {@code
 * recordReview} by that Actor through the stub's protocol engine, exactly as the human's own client
 * would send it (its headers, the WorkSession's cursor, the Review built from the Request as the
 * host holds it), so code awaiting the answer sees the host's real events and records, and the host
 * refuses what it would refuse from a real human (an expired Request, an Actor of another Worker).
 * The Actor must be registered (or given) as a human Actor of the Request's target Worker.
 *
 * <p>Reviews are built by {@link ProtocolRecords} on the stub's clock and ids. An approval's
 * ApprovalScope is the narrowest the protocol allows (the Request's action, once, for its
 * requester, valid for {@link #APPROVAL_VALIDITY}); the overloads taking a {@code scope} operator
 * let a test widen or narrow it.
 */
public final class StubHuman {

  /** How long an approval made here holds unless the test's scope operator says otherwise. */
  public static final Duration APPROVAL_VALIDITY = Duration.ofHours(1);

  private final StubHost host;
  private final String actorId;

  StubHuman(StubHost host, String actorId) {
    this.host = host;
    this.actorId = Objects.requireNonNull(actorId, "actorId");
  }

  /** The human Actor's id. */
  public String actorId() {
    return actorId;
  }

  /**
   * Approves Request {@code requestId} of WorkSession {@code workSessionId} with the narrowest
   * ApprovalScope.
   *
   * @return the Review as recorded
   * @throws IllegalStateException if the host refuses the Review (its ProtocolError in the message)
   */
  public Review approve(String workSessionId, String requestId) {
    return approve(workSessionId, requestId, UnaryOperator.identity());
  }

  /**
   * Approves with the ApprovalScope {@code scope} makes of the narrowest one (bound to the Request
   * and this Review already): {@code s -> s.maxUses(3L)}.
   */
  public Review approve(
      String workSessionId, String requestId, UnaryOperator<ApprovalScope> scope) {
    return withScope(workSessionId, requestId, ReviewDecision.APPROVE, scope);
  }

  /**
   * Narrows: approves less than the Request asked, with the ApprovalScope {@code scope} makes of
   * the narrowest one: {@code s -> s.allowedScope(new ApprovalBoundary().scopeRef("scope:docs"))}.
   */
  public Review narrow(String workSessionId, String requestId, UnaryOperator<ApprovalScope> scope) {
    return withScope(workSessionId, requestId, ReviewDecision.NARROW, scope);
  }

  /** Denies Request {@code requestId}. */
  public Review deny(String workSessionId, String requestId) {
    return decide(workSessionId, requestId, ReviewDecision.DENY);
  }

  /**
   * Reviews Request {@code requestId} with a decision that carries no ApprovalScope: {@code deny},
   * {@code answer}, {@code correct} or {@code needs_revision}.
   */
  public Review decide(String workSessionId, String requestId, ReviewDecision decision) {
    if (decision == ReviewDecision.APPROVE
        || decision == ReviewDecision.NARROW
        || decision == ReviewDecision.TAKEOVER) {
      throw new IllegalArgumentException(
          decision + " needs more than a decision: use approve, narrow, or a Takeover");
    }
    Request request = request(workSessionId, requestId).request();
    return record(workSessionId, records().review(request, workerId(), decision));
  }

  /**
   * Lets Request {@code requestId} expire: moves the stub's clock to its {@code expires_at} and
   * reads the WorkSession as this human, which makes the host write {@code request.expired} at
   * once, as a real host does at the next touch of the WorkSession (or its expiry sweeper). The
   * stub must run on a {@link StubClock}; give the code under test the same one.
   *
   * @return the Request as the host holds it now ({@code expired})
   * @throws IllegalStateException if the stub's clock is not a {@link StubClock}, or the Request is
   *     not open
   */
  public Request letExpire(String workSessionId, String requestId) {
    if (!(host.clock() instanceof StubClock clock)) {
      throw new IllegalStateException(
          "letExpire moves the stub's clock: build the stub with"
              + " JarvisHostStub.builder().clock(StubClock.at(...))");
    }
    Request request = request(workSessionId, requestId).request();
    clock.advanceTo(request.getExpiresAt().toInstant());
    refusedOr(
        host.actAs(
            actorId,
            ProtocolOperations.byId("getWorkSession"),
            Map.of("work_session_id", workSessionId),
            null),
        "getWorkSession");
    Request now = request(workSessionId, requestId).request();
    if (!"expired".equals(now.getStatus().getValue())) {
      throw new IllegalStateException(
          "Request " + requestId + " did not expire: it is " + now.getStatus());
    }
    return now;
  }

  // ---- building and recording ----

  private Review withScope(
      String workSessionId,
      String requestId,
      ReviewDecision decision,
      UnaryOperator<ApprovalScope> scope) {
    Held held = request(workSessionId, requestId);
    ProtocolRecords records = records();
    Review review = records.review(held.request(), workerId(), decision);
    ApprovalScope narrowest =
        records.approvalScope(held.request(), review.getId(), held.at(), APPROVAL_VALIDITY);
    return record(workSessionId, review.approvalScope(scope.apply(narrowest)));
  }

  private Review record(String workSessionId, Review review) {
    JsonNode sent = JarvisJson.mapper().valueToTree(review);
    StoredResponse answer =
        host.actAs(
            actorId,
            ProtocolOperations.byId("recordReview"),
            Map.of("work_session_id", workSessionId),
            sent);
    return bind(refusedOr(answer, "recordReview"), Review.class);
  }

  private ProtocolRecords records() {
    return new ProtocolRecords(host.clock(), host.ids(), actorId);
  }

  private String workerId() {
    JsonNode actor =
        host.actor(actorId)
            .orElseThrow(() -> new IllegalStateException("no Actor " + actorId + " is registered"));
    return actor.path(Actor.JSON_PROPERTY_WORKER_ID).asText();
  }

  /** The Request as held, with the cursor just after its creation (what an approval binds). */
  private record Held(Request request, ChainCursor at) {}

  private Held request(String workSessionId, String requestId) {
    StoredRecord stored =
        host.record(RecordKind.REQUEST, workSessionId, requestId)
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "no Request " + requestId + " in WorkSession " + workSessionId));
    return new Held(bind(stored.body(), Request.class), stored.recordedAt().orElseThrow());
  }

  private static JsonNode refusedOr(StoredResponse answer, String operationId) {
    JsonNode body;
    try {
      body = JarvisJson.mapper().readTree(answer.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (answer.status() / 100 != 2) {
      throw new IllegalStateException("the host refused the human's " + operationId + ": " + body);
    }
    return body;
  }

  private static <T> T bind(JsonNode tree, Class<T> type) {
    try {
      return JarvisJson.mapper().treeToValue(tree, type);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(
          "the host kit stored a " + type.getSimpleName() + " off-spec", e);
    }
  }

  @Override
  public String toString() {
    return "StubHuman[" + actorId + "]";
  }
}
