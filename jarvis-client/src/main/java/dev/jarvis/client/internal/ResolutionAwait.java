package dev.jarvis.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.AwaitPolicy;
import dev.jarvis.client.JarvisFailure;
import dev.jarvis.client.JarvisInvalidResponseException;
import dev.jarvis.client.JarvisResponse;
import dev.jarvis.client.JarvisTransportException;
import dev.jarvis.client.JarvisUnsupportedCapabilityException;
import dev.jarvis.client.RequestResolution;
import dev.jarvis.client.RequestResolution.Outcome;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventStream;
import dev.jarvis.model.Request;
import dev.jarvis.model.Review;
import java.net.http.HttpHeaders;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One await of a human's answer to a Request: reads the Request, and while it is open follows the
 * WorkSession's chain from genesis on a {@link SessionWatch} (live, {@link StreamedSessionWatch},
 * where the Request's answer declares {@code event-stream}; else polled) and reads the Request
 * again whenever the chain moved (or, on a host without the event log, after every wait). A closed
 * Request completes the await with the host's outcome, once the resolving Review (where there is
 * one) has been read and checked against the Request, and the chain has been seen to record the
 * resolution ({@link ResolutionEvidence}): a resolution the verified chain does not hold is not
 * believed.
 *
 * <p>Fails closed: the await's own deadline (the client's clock) completes it {@code TIMED_OUT}, a
 * host unreachable for longer than {@link AwaitPolicy#hostLostAfter()} {@code HOST_LOST}; neither
 * carries an approval. A refusal or an off-spec answer fails the future with that {@link
 * JarvisFailure}, as any call does. Cancelling the future stops the reads and waits; however the
 * await ends, the watch is closed (a live one stops its subscription).
 *
 * <p>One step runs at a time (each starts when the previous one's future completed), so the state
 * needs no lock; only the step in flight is shared with a cancelling thread.
 */
public final class ResolutionAwait {

  /** What the await reads, through the client's pipeline as the awaiting Actor. */
  public interface Reads {

    /**
     * The Request as the host holds it now ({@code request-read}), with the answer's headers (whose
     * {@code Jarvis-Host-Capabilities} say whether the host has the event log).
     */
    CompletableFuture<JarvisResponse<Request>> request();

    /** A Review of the WorkSession ({@code request-read}). */
    CompletableFuture<Review> review(String reviewId);

    /** A page of the WorkSession's events ({@code event-log}). */
    CompletableFuture<dev.jarvis.core.eventlog.EventPage> page(EventLog.PageRequest page);

    /**
     * The WorkSession's events after a verified cursor, live ({@code event-stream}); empty where
     * the reads cannot follow a stream, and the await polls.
     */
    default Optional<Flow.Publisher<JsonNode>> follow(ChainCursor after) {
      return Optional.empty();
    }
  }

  private final String workSessionId;
  private final String requestId;
  private final AwaitPolicy policy;
  private final Clock clock;
  private final Function<Duration, CompletableFuture<Void>> waits;
  private final Reads reads;
  private final Instant started;
  private final Instant deadline;
  private final CompletableFuture<RequestResolution> result = new CompletableFuture<>();

  private volatile SessionWatch watch;
  private Optional<Request> lastSeen = Optional.empty();
  private Optional<Instant> unreachableSince = Optional.empty();
  private Optional<JarvisFailure> lastFailure = Optional.empty();
  private int failures;

  private final ResolutionEvidence evidence;
  private volatile CompletableFuture<?> inFlight = CompletableFuture.completedFuture(null);

  private ResolutionAwait(
      String workSessionId,
      String requestId,
      Duration timeout,
      AwaitPolicy policy,
      Clock clock,
      Function<Duration, CompletableFuture<Void>> waits,
      Reads reads) {
    this.workSessionId = Objects.requireNonNull(workSessionId, "workSessionId");
    this.requestId = Objects.requireNonNull(requestId, "requestId");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.clock = clock;
    this.waits = waits;
    this.reads = reads;
    this.started = clock.instant();
    this.deadline = started.plus(timeout);
    this.watch = new PolledEventLog(workSessionId, policy, reads::page, waits);
    this.evidence = new ResolutionEvidence(workSessionId, requestId);
  }

  /**
   * Starts an await; the future completes with its resolution.
   *
   * @param timeout how long to wait for the human, by {@code clock}; zero reads once
   * @param waits the client's wait ({@code Sleeper.delay} on its executor)
   */
  public static CompletableFuture<RequestResolution> start(
      String workSessionId,
      String requestId,
      Duration timeout,
      AwaitPolicy policy,
      Clock clock,
      Function<Duration, CompletableFuture<Void>> waits,
      Reads reads) {
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("a timeout cannot be negative: " + timeout);
    }
    ResolutionAwait await =
        new ResolutionAwait(workSessionId, requestId, timeout, policy, clock, waits, reads);
    await.result.whenComplete(
        (done, failure) -> {
          if (await.result.isCancelled()) {
            // The caller stopped waiting: no further read or wait starts, and the one in flight
            // is cancelled (an HTTP exchange, or a timer).
            await.inFlight.cancel(true);
          }
          // However it ended, a live watch stops following the WorkSession.
          await.watch.close();
        });
    await.readFirst();
    return await.result;
  }

  // ---- the steps ----

  /**
   * Reads the Request; its answer says whether the host keeps an event log to follow. A Request
   * closed already resolves at once; an open one is watched from the chain's end.
   */
  private void readFirst() {
    then(
        reads.request(),
        answer -> {
          if (!advertises(answer.headers(), EventLog.CAPABILITY)) {
            replaceWatch(new RequestRereads(policy, waits));
          } else if (advertises(answer.headers(), EventStream.CAPABILITY)
              && watch instanceof PolledEventLog
              && reads.follow(ChainCursor.GENESIS).isPresent()) {
            replaceWatch(
                new StreamedSessionWatch(
                    workSessionId, after -> reads.follow(after).orElseThrow(), reads::page, waits));
          }
          Request request = checked(answer.body());
          Optional<Outcome> outcome = Outcome.of(request.getStatus());
          if (outcome.isPresent()) {
            resolve(request, outcome.get());
          } else if (watch.seesEvents()) {
            catchUp();
          } else {
            waitForChange();
          }
        },
        this::readFirst);
  }

  /** Reads the chain up to now, then the Request again (it may have closed meanwhile). */
  private void catchUp() {
    then(
        watch.next(Duration.ZERO),
        events -> {
          evidence.note(events);
          if (events.isEmpty()) {
            readRequest();
          } else {
            catchUp();
          }
        },
        this::catchUp);
  }

  private void readRequest() {
    then(reads.request(), answer -> onRequest(answer.body()), this::readRequest);
  }

  private void onRequest(Request request) {
    Optional<Outcome> outcome = Outcome.of(checked(request).getStatus());
    if (outcome.isPresent()) {
      resolve(request, outcome.get());
    } else {
      waitForChange();
    }
  }

  /** The Request read, if it is the one asked for; remembered as the last seen. */
  private Request checked(Request request) {
    if (!requestId.equals(request.getId()) || !workSessionId.equals(request.getWorkSessionId())) {
      throw new JarvisInvalidResponseException(
          200,
          "/id",
          "asked for Request '"
              + requestId
              + "' of WorkSession '"
              + workSessionId
              + "', the host answered '"
              + request.getId()
              + "' of '"
              + request.getWorkSessionId()
              + "'");
    }
    lastSeen = Optional.of(request);
    return request;
  }

  /** Watches with {@code next} from now on; the previous watch stops, and one after the end too. */
  private void replaceWatch(SessionWatch next) {
    SessionWatch previous = watch;
    watch = next;
    previous.close();
    if (result.isDone()) {
      next.close();
    }
  }

  private static boolean advertises(HttpHeaders headers, String name) {
    return HostCapabilities.declares(headers, name);
  }

  /** Waits until the chain moves (or the watch's wait ends), then reads the Request again. */
  private void waitForChange() {
    Duration remaining = remaining();
    if (remaining.isZero()) {
      finish(Outcome.TIMED_OUT, lastFailure);
      return;
    }
    then(
        watch.next(remaining),
        events -> {
          evidence.note(events);
          if (!events.isEmpty() || !watch.seesEvents()) {
            readRequest();
          } else {
            waitForChange();
          }
        },
        this::waitForChange);
  }

  private void resolve(Request request, Outcome outcome) {
    Optional<String> reviewId = Optional.ofNullable(request.getResolvedByReviewId());
    if (reviewId.isEmpty()) {
      inTheChain(request, outcome, Optional.empty());
      return;
    }
    then(
        reads.review(reviewId.get()),
        review -> {
          evidence.checkReview(request, review);
          inTheChain(request, outcome, Optional.of(review));
        },
        () -> resolve(request, outcome));
  }

  /**
   * Completes once the chain holds the resolution; the Request read may be ahead of the pages read
   * so far, so the rest of the chain is read first.
   */
  private void inTheChain(Request request, Outcome outcome, Optional<Review> review) {
    if (!watch.seesEvents() || evidence.recorded(request)) {
      result.complete(new RequestResolution.Resolved(outcome, request, review));
      return;
    }
    then(
        watch.next(Duration.ZERO),
        events -> {
          evidence.note(events);
          if (events.isEmpty()) {
            throw new JarvisInvalidResponseException(
                200,
                "/status",
                "Request '"
                    + requestId
                    + "' reads "
                    + request.getStatus()
                    + ", but no event of the verified chain records it ("
                    + ResolutionEvidence.recordingEvent(request)
                    + ")");
          }
          inTheChain(request, outcome, review);
        },
        () -> inTheChain(request, outcome, review));
  }

  // ---- time, failures, the end ----

  private Duration remaining() {
    Duration left = Duration.between(clock.instant(), deadline);
    return left.isNegative() ? Duration.ZERO : left;
  }

  private void finish(Outcome outcome, Optional<JarvisFailure> failure) {
    result.complete(
        new RequestResolution.Unresolved(
            outcome,
            workSessionId,
            requestId,
            Duration.between(started, clock.instant()),
            lastSeen,
            failure));
  }

  /**
   * Runs {@code next} with the step's value, unless the await ended meanwhile. A transport failure
   * is waited out ({@code again} runs the step anew) until the host counts as lost; a host without
   * the event log is watched by re-reading the Request; anything else fails the await.
   */
  private <T> void then(CompletableFuture<T> step, Consumer<T> next, Runnable again) {
    then(step, next, again, true);
  }

  /**
   * As {@link #then(CompletableFuture, Consumer, Runnable)}; {@code reachedHost} says whether the
   * step's success shows the host answering (a read) or not (a wait between failed reads).
   */
  private <T> void then(
      CompletableFuture<T> step, Consumer<T> next, Runnable again, boolean reachedHost) {
    inFlight = step;
    if (result.isDone()) {
      step.cancel(true);
      return;
    }
    step.whenComplete(
        (value, failure) -> {
          if (result.isDone()) {
            return;
          }
          try {
            if (failure == null) {
              if (reachedHost) {
                unreachableSince = Optional.empty();
                lastFailure = Optional.empty();
                failures = 0;
              }
              next.accept(value);
            } else {
              failed(FailureCause.of(failure), again);
            }
          } catch (RuntimeException | Error e) {
            result.completeExceptionally(e);
          }
        });
  }

  private void failed(Throwable failure, Runnable again) {
    if (failure instanceof JarvisUnsupportedCapabilityException missing
        && EventLog.CAPABILITY.equals(missing.capability())
        && watch.seesEvents()) {
      // A host of the spec alone: no chain to follow, so the Request is read after every wait.
      replaceWatch(new RequestRereads(policy, waits));
      readRequest();
      return;
    }
    if (!(failure instanceof JarvisTransportException lost)) {
      result.completeExceptionally(failure);
      return;
    }
    Instant now = clock.instant();
    Instant since = unreachableSince.orElse(now);
    unreachableSince = Optional.of(since);
    lastFailure = Optional.of(lost);
    if (!now.isBefore(since.plus(policy.hostLostAfter()))) {
      finish(Outcome.HOST_LOST, lastFailure);
      return;
    }
    Duration remaining = remaining();
    if (remaining.isZero()) {
      finish(Outcome.TIMED_OUT, lastFailure);
      return;
    }
    Duration wait = RequestRereads.min(policy.poll(++failures), remaining);
    then(waits.apply(wait), done -> again.run(), again, false);
  }
}
