package dev.jarvis.conformance;

import static dev.jarvis.conformance.ExchangeRules.expectRefusal;
import static dev.jarvis.conformance.ExchangeRules.expectSuccess;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.conformance.EventStreamConnection.Seen;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventStream;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.validation.PayloadValidator;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Live checks of the {@code event-stream} capability (docs/protocol-decisions.md, "The event-stream
 * capability"), where the host declares it and serves its stream ({@link #EVENT_STREAM_SERVED};
 * otherwise each is skipped, saying why): frames in chain order with {@code id:} the sequence, an
 * event appended while a stream is open arriving on it, {@code Last-Event-ID}, the read's refusals,
 * an idle stream kept open or ended with an end comment, the long poll ({@code ?wait=S}), and a
 * Request's expiry reaching a stream nobody else touches. Every wait is bounded and reads on a
 * thread of its own; none sleeps. A client reconnects with {@code Last-Event-ID} after any end, as
 * the contract says, so a host that answers one batch per response ({@code : end batch}) passes as
 * one that keeps its streams open.
 */
final class EventStreamChecks {

  static final String GROUP = EventStream.CAPABILITY;

  static final String EVENT_STREAM_SERVED =
      "a host that declares event-stream answers a member's read with Accept: text/event-stream"
          + " as a stream (200, Content-Type: text/event-stream)";

  static final String IN_CHAIN_ORDER =
      "a stream carries a WorkSession's events from genesis in chain order, id: the sequence"
          + " and data: the event, then an event appended while it is open";

  static final String EXPIRY =
      "a stream carries request.expired when a Request it watches expires, with no other call"
          + " to the WorkSession";

  /** How long a check waits for what it expects from a stream or a long poll. */
  static final Duration BOUND = Duration.ofSeconds(10);

  /** How long an idle stream is watched for an unannounced close. */
  static final Duration IDLE_WINDOW = Duration.ofSeconds(2);

  /** The long poll's wait, and how much sooner than it the answer to an append must come. */
  static final int POLL_WAIT_SECONDS = 5;

  /** How far the Request of the expiry check is set in the future. */
  static final Duration EXPIRES_IN = Duration.ofSeconds(2);

  /** How far the suite's clock may be from the wall clock for the expiry check to run. */
  static final Duration CLOCK_TOLERANCE = Duration.ofSeconds(30);

  /** At most this many connections per follow: a host that ends streams at once loops no more. */
  private static final int MAX_CONNECTIONS = 50;

  private static final Pattern CANONICAL_DIGITS = Pattern.compile("0|[1-9][0-9]{0,18}");

  private EventStreamChecks() {}

  static void run(CheckRunner runner, LiveHost live, boolean eventLogServed) {
    ExecutorService threads =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "conformance-event-stream");
              t.setDaemon(true);
              return t;
            });
    try {
      run(runner, live, eventLogServed, threads);
    } finally {
      threads.shutdownNow();
    }
  }

  private static void run(
      CheckRunner runner, LiveHost live, boolean eventLogServed, ExecutorService threads) {
    boolean[] served = {false};
    runner.check(
        GROUP,
        EVENT_STREAM_SERVED,
        () -> {
          requireDeclared(live, eventLogServed);
          String session = live.newSession();
          try (EventStreamConnection stream = live.stream(session, "", live.human, Map.of())) {
            Seen first = stream.next(BOUND).orElse(null);
            if (first instanceof Seen.Started) {
              served[0] = true;
              return null;
            }
            if (first == null) {
              throw new CheckFailure(
                  "the host declares "
                      + GROUP
                      + " but sent no answer to a stream of a WorkSession with an event within "
                      + BOUND.toSeconds()
                      + " s");
            }
            throw new CheckFailure(
                "the host declares "
                    + GROUP
                    + " in "
                    + JarvisHeaders.HOST_CAPABILITIES
                    + " but answered a member's GET "
                    + EventLog.OPERATION.path()
                    + " with Accept: "
                    + EventStream.MEDIA_TYPE
                    + " "
                    + describe(first)
                    + ": serve the stream (docs/protocol-decisions.md, \"The event-stream"
                    + " capability\"), or do not declare "
                    + GROUP);
          }
        });
    Runnable requireServed =
        () -> {
          requireDeclared(live, eventLogServed);
          if (!served[0]) {
            throw new CheckSkipped(
                "the host declares "
                    + GROUP
                    + " but does not serve its stream: see the check '"
                    + EVENT_STREAM_SERVED
                    + "'");
          }
        };
    runner.check(
        GROUP,
        IN_CHAIN_ORDER,
        () -> {
          requireServed.run();
          String session = live.newSession();
          ChainCursor at = live.cursor(session);
          for (int i = 0; i < 2; i++) {
            at = append(live, session, at);
          }
          try (Follower follower = new Follower(live, session, ChainCursor.GENESIS, "", Map.of())) {
            long held = at.revision();
            if (!follower.until(events -> events.size() >= held, BOUND)) {
              throw new CheckFailure(
                  "within "
                      + BOUND.toSeconds()
                      + " s the stream carried "
                      + follower.events.size()
                      + " of the WorkSession's "
                      + held
                      + " events");
            }
            int connectionsBefore = follower.connections;
            ChainCursor appended = append(live, session, at);
            if (!follower.until(events -> events.size() > held, BOUND)) {
              throw new CheckFailure(
                  "an event appended while the stream was open did not arrive on it within "
                      + BOUND.toSeconds()
                      + " s");
            }
            JsonNode last = follower.events.get(follower.events.size() - 1);
            if (!last.path("event_hash").asText().equals(appended.lastEventHash())) {
              throw new CheckFailure("the stream's last event is not the one appended: " + last);
            }
            if (follower.events.size() != appended.revision()) {
              throw new CheckFailure(
                  "the stream carried "
                      + follower.events.size()
                      + " events, the WorkSession is at revision "
                      + appended.revision());
            }
            return follower.connections == connectionsBefore
                ? "the appended event arrived on the open stream"
                : "the appended event arrived after "
                    + (follower.connections - connectionsBefore)
                    + " reconnection(s) with Last-Event-ID, each after an end comment";
          }
        });
    runner.check(
        GROUP,
        "a stream opened with Last-Event-ID: N starts at sequence N + 1, whatever after= says",
        () -> {
          requireServed.run();
          String session = live.newSession();
          ChainCursor at = live.cursor(session);
          ChainCursor second = null;
          for (int i = 0; i < 3; i++) {
            at = append(live, session, at);
            if (i == 0) {
              second = at;
            }
          }
          long total = at.revision();
          try (Follower follower =
              new Follower(
                  live,
                  session,
                  second,
                  "after=0",
                  Map.of(EventStream.LAST_EVENT_ID, Long.toString(second.revision())))) {
            if (!follower.until(events -> events.size() >= total - 2, BOUND)) {
              throw new CheckFailure(
                  "within "
                      + BOUND.toSeconds()
                      + " s the stream resumed after "
                      + second.revision()
                      + " carried "
                      + follower.events.size()
                      + " of the "
                      + (total - 2)
                      + " events after it");
            }
          }
          return null;
        });
    runner.check(
        GROUP,
        "a stream with a malformed Last-Event-ID is refused with unknown_state at"
            + " /Last-Event-ID",
        () -> {
          requireServed.run();
          String session = live.newSession();
          Seen.Answered answer =
              refusal(
                  live.stream(session, "", live.human, Map.of(EventStream.LAST_EVENT_ID, "01")),
                  "a stream with Last-Event-ID: 01");
          expectProtocolError(answer, "unknown_state");
          String field = answer.json().path("field").asText();
          if (!field.equals("/" + EventStream.LAST_EVENT_ID)) {
            throw new CheckFailure(
                "the refusal names field '"
                    + field
                    + "', not '/"
                    + EventStream.LAST_EVENT_ID
                    + "'");
          }
          return null;
        });
    runner.check(
        GROUP,
        "a non-member's stream of a WorkSession and a stream of an unknown WorkSession are"
            + " refused alike, with unauthorized_actor",
        () -> {
          requireServed.run();
          String session = live.newSession();
          Seen.Answered outsider =
              refusal(
                  live.stream(session, "", live.outsider, Map.of()),
                  "a non-member's stream of an existing WorkSession");
          String unknownSession = live.id("ws-unknown");
          Seen.Answered outsiderUnknown =
              refusal(
                  live.stream(unknownSession, "", live.outsider, Map.of()),
                  "a non-member's stream of an unknown WorkSession");
          Seen.Answered memberUnknown =
              refusal(
                  live.stream(unknownSession, "", live.human, Map.of()),
                  "a stream of an unknown WorkSession");
          for (Seen.Answered answer : List.of(outsider, outsiderUnknown, memberUnknown)) {
            expectProtocolError(answer, "unauthorized_actor");
          }
          if (outsider.status() != outsiderUnknown.status()
              || !outsider.untraced().equals(outsiderUnknown.untraced())) {
            throw new CheckFailure(
                "the refusals differ, so they tell the WorkSessions apart: "
                    + outsider.describe()
                    + " / "
                    + outsiderUnknown.describe());
          }
          return null;
        });
    runner.check(
        GROUP,
        "an idle stream stays open or ends with an end comment, and a reconnection with"
            + " Last-Event-ID loses nothing",
        () -> {
          requireServed.run();
          String session = live.newSession();
          ChainCursor at = live.cursor(session);
          String query = "after=" + at.revision();
          Optional<String> ended = Optional.empty();
          try (EventStreamConnection stream = live.stream(session, query, live.human, Map.of())) {
            long deadline = System.nanoTime() + IDLE_WINDOW.toNanos();
            while (ended.isEmpty()) {
              long left = deadline - System.nanoTime();
              if (left <= 0) {
                break;
              }
              Seen seen = stream.next(Duration.ofNanos(left)).orElse(null);
              if (seen == null) {
                break;
              }
              if (seen instanceof Seen.Comment comment) {
                ended = comment.endReason();
              } else if (seen instanceof Seen.Closed) {
                throw new CheckFailure(
                    "the host closed an idle stream within "
                        + IDLE_WINDOW.toSeconds()
                        + " s without an end comment ("
                        + EventStream.END_PREFIX.trim()
                        + " <reason>)");
              } else if (!(seen instanceof Seen.Started)) {
                throw new CheckFailure(
                    "a stream after the WorkSession's last event sent " + describe(seen));
              }
            }
          }
          try (Follower follower =
              new Follower(
                  live,
                  session,
                  at,
                  "",
                  Map.of(EventStream.LAST_EVENT_ID, Long.toString(at.revision())))) {
            // The stream resumes where the first one stopped, as a client resumes after an end.
            ChainCursor appended = append(live, session, at);
            if (!follower.until(events -> !events.isEmpty(), BOUND)) {
              throw new CheckFailure(
                  "a stream resumed after sequence "
                      + at.revision()
                      + " did not carry the event appended next within "
                      + BOUND.toSeconds()
                      + " s");
            }
            if (!follower
                .events
                .get(0)
                .path("event_hash")
                .asText()
                .equals(appended.lastEventHash())) {
              throw new CheckFailure("the resumed stream did not carry the event appended next");
            }
          }
          return ended
              .map(reason -> "the host ended the idle stream with \": end " + reason + "\"")
              .orElse("the idle stream stayed open for " + IDLE_WINDOW.toSeconds() + " s");
        });
    runner.check(
        GROUP,
        "a long poll (after= the last sequence, wait="
            + POLL_WAIT_SECONDS
            + ") answers as soon as an"
            + " event is appended",
        () -> {
          requireServed.run();
          String session = live.newSession();
          ChainCursor at = live.cursor(session);
          long start = System.nanoTime();
          CompletableFuture<Exchange> poll =
              CompletableFuture.supplyAsync(
                  () ->
                      live.events(
                          session,
                          "after=" + at.revision() + "&wait=" + POLL_WAIT_SECONDS,
                          live.agent),
                  threads);
          ChainCursor appended = append(live, session, at);
          Exchange answer = await(poll, BOUND);
          Duration took = Duration.ofNanos(System.nanoTime() - start);
          JsonNode page = expectSuccess(answer);
          JsonNode events = page.path("events");
          if (events.isEmpty()) {
            throw new CheckFailure(
                "the long poll answered an empty page after "
                    + took.toMillis()
                    + " ms though an event was appended while it waited");
          }
          if (!events.get(0).path("event_hash").asText().equals(appended.lastEventHash())) {
            throw new CheckFailure("the long poll answered another event: " + events.get(0));
          }
          if (took.compareTo(Duration.ofSeconds(POLL_WAIT_SECONDS)) >= 0) {
            throw new CheckFailure(
                "the long poll answered only after "
                    + took.toMillis()
                    + " ms, its whole wait, not as the event was appended");
          }
          return "answered in " + took.toMillis() + " ms";
        });
    runner.check(
        GROUP,
        "a long poll with wait above "
            + EventLog.MAX_WAIT_SECONDS
            + " is refused with unknown_state at /wait",
        () -> {
          requireServed.run();
          String session = live.newSession();
          Exchange answer =
              live.events(session, "wait=" + (EventLog.MAX_WAIT_SECONDS + 1), live.human);
          expectRefusal(answer, "unknown_state");
          String field = answer.body().path("field").asText();
          if (!field.equals("/" + EventLog.WAIT)) {
            throw new CheckFailure("the refusal names field '" + field + "', not '/wait'");
          }
          return null;
        });
    runner.check(GROUP, EXPIRY, live.suitePolicy.hinted(() -> expiry(live, requireServed)));
  }

  private static String expiry(LiveHost live, Runnable requireServed) {
    requireServed.run();
    Duration skew = Duration.between(Instant.now(), live.instant()).abs();
    if (skew.compareTo(CLOCK_TOLERANCE) > 0) {
      throw new CheckSkipped(
          "the suite runs on a clock "
              + skew.toSeconds()
              + " s from the wall clock, so it cannot give a Request an expires_at the host"
              + " reaches within the check's "
              + BOUND.toSeconds()
              + " s");
    }
    PolicyActions.Action action = PurposeChecks.reviewable(live);
    String session = live.newSession();
    String decision = live.id("pd");
    String request = live.id("req");
    PurposeChecks.reviewRequired(live, session, action, decision, request);
    expectSuccess(
        PurposeChecks.request(
            live,
            session,
            action,
            decision,
            request,
            live.humanWorker,
            live.instant().plus(EXPIRES_IN)));
    ChainCursor at = live.cursor(session);
    Predicate<List<JsonNode>> expired =
        events -> events.stream().anyMatch(e -> isExpiryOf(e, request));
    try (Follower follower = new Follower(live, session, at, "after=" + at.revision(), Map.of())) {
      if (follower.until(expired, EXPIRES_IN.plus(BOUND))) {
        return "with " + action.describe();
      }
      // Nothing yet: has the host expired the Request at all? A read is a touch of the WorkSession.
      JsonNode page = expectSuccess(live.events(session, "after=" + at.revision(), live.human));
      boolean logged = false;
      for (JsonNode event : page.path("events")) {
        logged |= isExpiryOf(event, request);
      }
      if (!logged) {
        throw new CheckSkipped(
            "the host had not written request.expired "
                + BOUND.toSeconds()
                + " s after the Request's expires_at (by the suite's clock), nor when read: its"
                + " clock or its expiry sweep does not let the check observe an expiry");
      }
      if (follower.until(expired, BOUND)) {
        throw new CheckSkipped(
            "the host wrote request.expired only when the WorkSession was read, not on time: it"
                + " runs no expiry sweep, so a stream alone does not learn of an expiry");
      }
      throw new CheckFailure(
          "the WorkSession's log holds request.expired for "
              + request
              + " but the stream following it did not carry it");
    }
  }

  private static boolean isExpiryOf(JsonNode event, String request) {
    // The host's expiry event names its Request (payload object_id, or a ref to it).
    return event.path("type").asText().equals("request.expired")
        && (event.path("payload").path("object_id").asText().equals(request)
            || event.toString().contains(request));
  }

  private static void requireDeclared(LiveHost live, boolean eventLogServed) {
    if (!live.declares(GROUP)) {
      throw CapabilityChecks.notDeclared(GROUP);
    }
    if (!eventLogServed) {
      throw new CheckSkipped(
          "a stream is the event-log read answered live, and the host does not serve that read:"
              + " see the check '"
              + CapabilityChecks.EVENT_LOG_SERVED
              + "'");
    }
  }

  /** Appends a note event as the human and answers the cursor after it. */
  private static ChainCursor append(LiveHost live, String session, ChainCursor at) {
    ObjectNode event = live.noteEvent(session, at);
    expectSuccess(live.appendEvent(session, at, event));
    return at.advance(event.path("event_hash").asText());
  }

  /** The answer to a stream request that must be refused: not a stream, read whole. */
  private static Seen.Answered refusal(EventStreamConnection connection, String what) {
    try (connection) {
      Seen first = connection.next(BOUND).orElse(null);
      if (first instanceof Seen.Answered answered) {
        return answered;
      }
      throw new CheckFailure(
          what
              + " must be refused, got "
              + (first == null ? "no answer within " + BOUND.toSeconds() + " s" : describe(first)));
    }
  }

  private static void expectProtocolError(Seen.Answered answer, String errorId) {
    if (answer.status() != 400) {
      throw new CheckFailure("expected 400 " + errorId + ", got " + answer.describe());
    }
    List<ProtocolViolation> violations =
        PayloadValidator.forSpec().validate("ProtocolError", answer.body());
    if (!violations.isEmpty()) {
      throw new CheckFailure(
          "the refusal is not a valid ProtocolError: " + violations.get(0).reason());
    }
    String got = answer.json().path("error_id").asText();
    if (!got.equals(errorId)) {
      throw new CheckFailure("expected error_id " + errorId + ", got " + got);
    }
  }

  private static String describe(Seen seen) {
    if (seen instanceof Seen.Answered answered) {
      return answered.describe();
    }
    if (seen instanceof Seen.Started) {
      return "a stream (200 " + EventStream.MEDIA_TYPE + ")";
    }
    if (seen instanceof Seen.Frame frame) {
      return "a frame (id: " + frame.id().orElse("(none)") + ")";
    }
    if (seen instanceof Seen.Comment comment) {
      return "the comment \": " + comment.text() + "\"";
    }
    if (seen instanceof Seen.Closed) {
      return "a closed connection";
    }
    return "a failed connection: " + ((Seen.Failed) seen).why();
  }

  private static <T> T await(CompletableFuture<T> future, Duration bound) {
    try {
      return future.get(bound.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new CheckFailure("no answer within " + bound.toSeconds() + " s");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw new CheckFailure("the request failed: " + e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CheckFailure("interrupted");
    }
  }

  /**
   * A client following a WorkSession's stream: it checks each frame as it arrives ({@code id:} the
   * sequence, {@code data:} a valid JarvisEvent of this WorkSession continuing the chain from where
   * it started) and reconnects with {@code Last-Event-ID} after every end, as the contract tells a
   * client to. Not thread-safe: one per check.
   */
  private static final class Follower implements AutoCloseable {

    private final LiveHost live;
    private final String session;
    private final List<JsonNode> events = new ArrayList<>();
    private ChainCursor at;
    private String firstQuery;
    private Map<String, String> firstHeaders;
    private EventStreamConnection connection;
    private int connections;

    Follower(
        LiveHost live,
        String session,
        ChainCursor start,
        String firstQuery,
        Map<String, String> firstHeaders) {
      this.live = live;
      this.session = session;
      this.at = start;
      this.firstQuery = firstQuery;
      this.firstHeaders = firstHeaders;
    }

    /** Reads until {@code done} holds for the events so far; false when {@code bound} passed. */
    boolean until(Predicate<List<JsonNode>> done, Duration bound) {
      long deadline = System.nanoTime() + bound.toNanos();
      while (!done.test(events)) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        if (connection == null) {
          connect();
        }
        Seen seen = connection.next(Duration.ofNanos(left)).orElse(null);
        if (seen == null) {
          return done.test(events);
        }
        if (seen instanceof Seen.Answered answered) {
          throw new CheckFailure(
              "a stream request (connection "
                  + connections
                  + ", after sequence "
                  + at.revision()
                  + ") answered "
                  + answered.describe());
        } else if (seen instanceof Seen.Frame frame) {
          accept(frame);
        } else if (seen instanceof Seen.Comment comment) {
          if (comment.endReason().isPresent()) {
            leave();
          }
        } else if (seen instanceof Seen.Closed) {
          leave();
        } else if (seen instanceof Seen.Failed failed) {
          throw new CheckFailure("the stream failed: " + failed.why());
        }
      }
      return true;
    }

    private void connect() {
      if (connections >= MAX_CONNECTIONS) {
        throw new CheckFailure(
            "the host ended the stream "
                + connections
                + " times without carrying the events expected");
      }
      Map<String, String> headers =
          connections == 0
              ? firstHeaders
              : Map.of(EventStream.LAST_EVENT_ID, Long.toString(at.revision()));
      String query = connections == 0 ? firstQuery : "";
      connection = live.stream(session, query, live.human, headers);
      connections++;
    }

    private void leave() {
      connection.close();
      connection = null;
    }

    private void accept(Seen.Frame frame) {
      String id = frame.id().orElse("");
      if (!CANONICAL_DIGITS.matcher(id).matches()) {
        throw new CheckFailure(
            "a frame's id: is '" + id + "', not the event's sequence as a decimal integer");
      }
      JsonNode event;
      try {
        event = JarvisJson.mapper().readTree(frame.data());
      } catch (IOException e) {
        throw new CheckFailure("a frame's data: is not JSON: " + excerpt(frame.data()));
      }
      if (event == null || !event.isObject()) {
        throw new CheckFailure("a frame's data: is not a JSON object: " + excerpt(frame.data()));
      }
      long sequence = event.path("sequence").asLong(-1);
      if (!id.equals(Long.toString(sequence))) {
        throw new CheckFailure(
            "a frame's id: is " + id + ", its event's sequence " + event.path("sequence"));
      }
      if (!event.path("work_session_id").asText().equals(session)) {
        throw new CheckFailure(
            "a stream of WorkSession "
                + session
                + " carried an event of "
                + event.path("work_session_id"));
      }
      List<ProtocolViolation> violations =
          PayloadValidator.forSpec().validate("JarvisEvent", event);
      if (!violations.isEmpty()) {
        ProtocolViolation v = violations.get(0);
        throw new CheckFailure(
            "a frame's data: is not a valid JarvisEvent: " + v.field() + " (" + v.reason() + ")");
      }
      Optional<ProtocolViolation> broken = EventChain.checkNext(at, event);
      if (broken.isPresent()) {
        throw new CheckFailure(
            "the stream does not continue the chain after sequence "
                + at.revision()
                + ": "
                + broken.get().reason());
      }
      at = at.advance(event.path("event_hash").asText());
      events.add(event);
    }

    private static String excerpt(String text) {
      return text.length() > 200 ? text.substring(0, 200) + "…" : text;
    }

    @Override
    public void close() {
      if (connection != null) {
        leave();
      }
    }
  }
}
