package dev.jarvis.conformance;

import static dev.jarvis.conformance.ExchangeRules.expectRefusal;
import static dev.jarvis.conformance.ExchangeRules.expectSuccess;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.requestinbox.InboxPage;
import dev.jarvis.core.requestinbox.RequestInbox;
import dev.jarvis.model.RequestStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Live checks of the {@code request-inbox} capability, where the host declares it (otherwise each
 * is skipped, saying why): the human sees the Request its agent raised, another human never does
 * (its own read answering, the positive control), an agent has no inbox, and a status the spec does
 * not have is refused.
 */
final class RequestInboxChecks {

  static final String GROUP = RequestInbox.CAPABILITY;

  static final String LISTS_OWN =
      "a human's inbox lists the pending Request its agent raised, as the host holds it";

  static final String NOT_ANOTHERS =
      "another human's inbox, read with every status, never lists a Request waiting on someone"
          + " else";

  /** Every status, so that a Request of any status would show. */
  private static final String ALL =
      RequestInbox.STATUS
          + "="
          + Arrays.stream(RequestStatus.values())
              .map(RequestStatus::getValue)
              .collect(Collectors.joining(","));

  private RequestInboxChecks() {}

  static void run(CheckRunner runner, LiveHost live) {
    runner.check(
        GROUP,
        LISTS_OWN,
        live.suitePolicy.hinted(
            () -> {
              requireDeclared(live);
              String request = pendingRequest(live);
              List<JsonNode> listed =
                  everything(live, live.human, RequestInbox.STATUS + "=pending");
              JsonNode found =
                  listed.stream()
                      .filter(r -> r.path("id").asText().equals(request))
                      .findFirst()
                      .orElseThrow(
                          () ->
                              new CheckFailure(
                                  "the human's pending inbox does not list Request " + request));
              if (!found.path("status").asText().equals("pending")
                  || !found.path("target_human_worker_id").asText().equals(live.humanWorker)) {
                throw new CheckFailure("the inbox lists " + found + " for Request " + request);
              }
              return null;
            }));
    runner.check(
        GROUP,
        NOT_ANOTHERS,
        live.suitePolicy.hinted(
            () -> {
              requireDeclared(live);
              if (!live.outsiderActs) {
                throw new CheckSkipped(
                    "no outsider credential given (--outsider-actor, --outsider-token): no second"
                        + " human can read an inbox of its own");
              }
              String request = pendingRequest(live);
              // Positive control: the outsider's own read answers, a page of its own inbox.
              List<JsonNode> listed = everything(live, live.outsider, ALL);
              for (JsonNode r : listed) {
                if (!r.path("target_human_worker_id").asText().equals(live.outsiderWorker)) {
                  throw new CheckFailure(
                      "the outsider's inbox lists Request "
                          + r.path("id").asText()
                          + ", which waits on "
                          + r.path("target_human_worker_id").asText()
                          + (r.path("id").asText().equals(request) ? " (the human's)" : ""));
                }
              }
              return null;
            }));
    runner.check(
        GROUP,
        "an agent has no inbox: its read is refused with unauthorized_actor",
        () -> {
          requireDeclared(live);
          expectRefusal(live.inbox("", live.agent), "unauthorized_actor");
          return null;
        });
    runner.check(
        GROUP,
        "a status the spec does not have is refused with unknown_state, not ignored",
        () -> {
          requireDeclared(live);
          Exchange refused = live.inbox(RequestInbox.STATUS + "=open", live.human);
          expectRefusal(refused, "unknown_state");
          if (!refused.body().path("field").asText().equals("/" + RequestInbox.STATUS)) {
            throw new CheckFailure("refused at " + refused.body().path("field") + ", not /status");
          }
          return null;
        });
  }

  private static void requireDeclared(LiveHost live) {
    if (!live.declares(RequestInbox.CAPABILITY)) {
      throw CapabilityChecks.notDeclared(RequestInbox.CAPABILITY);
    }
  }

  /** A WorkSession of the suite's human, and the agent's pending Request in it; its id. */
  private static String pendingRequest(LiveHost live) {
    PolicyActions.Action action = PurposeChecks.reviewable(live);
    String session = live.newSession();
    String decision = live.id("pd");
    String request = live.id("req");
    Instant expires = live.instant().plus(Duration.ofMinutes(30));
    PurposeChecks.reviewRequired(live, session, action, decision, request);
    expectSuccess(
        PurposeChecks.request(live, session, action, decision, request, live.humanWorker, expires));
    return request;
  }

  /** Every Request of {@code actor}'s inbox for {@code query}, page after page. */
  private static List<JsonNode> everything(LiveHost live, String actor, String query) {
    List<JsonNode> all = new ArrayList<>();
    long after = 0;
    for (int pages = 0; pages < 100; pages++) {
      JsonNode page =
          expectSuccess(live.inbox(query + "&" + RequestInbox.AFTER + "=" + after, actor));
      page.path(InboxPage.REQUESTS).forEach(all::add);
      if (!page.path(InboxPage.HAS_MORE).asBoolean()) {
        return all;
      }
      long next = page.path(InboxPage.NEXT_AFTER).asLong();
      if (next <= after) {
        throw new CheckFailure("next_after does not move past " + after + ": " + page);
      }
      after = next;
    }
    throw new CheckFailure("the inbox pages on past 100 pages");
  }
}
