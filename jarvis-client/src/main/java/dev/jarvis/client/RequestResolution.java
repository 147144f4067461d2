package dev.jarvis.client;

import dev.jarvis.model.ApprovalScope;
import dev.jarvis.model.Request;
import dev.jarvis.model.RequestStatus;
import dev.jarvis.model.Review;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * How an await of a human's answer ended ({@link JarvisClient#awaitResolution}): either the host
 * recorded an outcome for the Request ({@link Resolved}: approved, narrowed, denied, answered, sent
 * back for revision, taken over, expired, superseded, cancelled — the spec's closed {@code
 * RequestStatus} values), or the await ended without learning one ({@link Unresolved}: its own
 * timeout, the caller cancelling, the host lost).
 *
 * <p><b>Fail closed.</b> The one door to acting on the answer is {@link #approval()}: it holds the
 * approving Review's ApprovalScope for {@link Outcome#APPROVED} and {@link Outcome#NARROWED}, and
 * is empty for every other outcome, every way the wait can end without an answer included. A
 * timeout is never an approval. Switch on {@link #outcome()} to say which it was.
 */
public sealed interface RequestResolution
    permits RequestResolution.Resolved, RequestResolution.Unresolved {

  /** Every way an await ends. */
  enum Outcome {
    /** A Review approved the requested action ({@code approved}); {@link #approval()} holds it. */
    APPROVED(RequestStatus.APPROVED),
    /** A Review approved less than was asked ({@code narrowed}); act within its scope only. */
    NARROWED(RequestStatus.NARROWED),
    /** A Review denied it ({@code denied}). */
    DENIED(RequestStatus.DENIED),
    /** A Review answered (or corrected) without approving an action ({@code answered}). */
    ANSWERED(RequestStatus.ANSWERED),
    /** A Review sent it back for changes ({@code needs_revision}); its comments say which. */
    NEEDS_REVISION(RequestStatus.NEEDS_REVISION),
    /** A human took the scope over ({@code takeover}), by a Takeover or a Review deciding so. */
    TAKEN_OVER(RequestStatus.TAKEOVER),
    /**
     * Nobody answered before its {@code expires_at} ({@code expired}): the Request's {@code
     * default_if_no_response} applies; the action stays unapproved.
     */
    EXPIRED(RequestStatus.EXPIRED),
    /** A newer Request replaced it ({@code superseded}); await that one instead. */
    SUPERSEDED(RequestStatus.SUPERSEDED),
    /** The host closed it as {@code cancelled}. */
    CANCELLED(RequestStatus.CANCELLED),
    /** The await's own timeout elapsed with the Request still open: no answer, no approval. */
    TIMED_OUT(null),
    /** The caller stopped waiting (the waiting thread was interrupted): no approval. */
    CANCELLED_BY_CALLER(null),
    /**
     * The host could not be reached or read for longer than {@link AwaitPolicy#hostLostAfter()}:
     * whether the human answered is unknown, so nothing is approved.
     */
    HOST_LOST(null);

    private final RequestStatus status;

    Outcome(RequestStatus status) {
      this.status = status;
    }

    /** Whether the host recorded this outcome (a closed Request status), not the await. */
    public boolean isRecordedByHost() {
      return status != null;
    }

    /** The Request status this outcome is, if the host records it. */
    public Optional<RequestStatus> requestStatus() {
      return Optional.ofNullable(status);
    }

    /** The outcome of a Request in {@code status}; empty while it is open. */
    public static Optional<Outcome> of(RequestStatus status) {
      for (Outcome outcome : values()) {
        if (outcome.status == status) {
          return Optional.of(outcome);
        }
      }
      return Optional.empty();
    }
  }

  /** The outcomes that carry an ApprovalScope. */
  Set<Outcome> APPROVING = EnumSet.of(Outcome.APPROVED, Outcome.NARROWED);

  /** Which outcome it was. */
  Outcome outcome();

  /** The WorkSession of the awaited Request. */
  String workSessionId();

  /** The awaited Request's id. */
  String requestId();

  /**
   * The ApprovalScope under which the agent may act: present for {@link Outcome#APPROVED} and
   * {@link Outcome#NARROWED} only. Empty for every other outcome, so code that acts only on a
   * present approval cannot act on a timeout, a cancellation, a lost host or a denial.
   */
  Optional<ApprovalScope> approval();

  /**
   * The host recorded an outcome: the Request as the host holds it now, closed, and the Review that
   * resolved it where one did.
   *
   * @param outcome one of the outcomes the host records ({@link Outcome#isRecordedByHost()})
   * @param request the Request, closed
   * @param review the resolving Review ({@code resolved_by_review_id}); empty for an expiry, a
   *     supersession, a cancellation or a Takeover recorded without a Review
   */
  record Resolved(Outcome outcome, Request request, Optional<Review> review)
      implements RequestResolution {

    public Resolved {
      Objects.requireNonNull(outcome, "outcome");
      Objects.requireNonNull(request, "request");
      Objects.requireNonNull(review, "review");
      if (!outcome.isRecordedByHost()) {
        throw new IllegalArgumentException(outcome + " is not recorded by a host");
      }
    }

    @Override
    public String workSessionId() {
      return request.getWorkSessionId();
    }

    @Override
    public String requestId() {
      return request.getId();
    }

    @Override
    public Optional<ApprovalScope> approval() {
      return APPROVING.contains(outcome) ? review.map(Review::getApprovalScope) : Optional.empty();
    }

    /** The Request that replaced this one ({@code superseded_by_request_id}), if superseded. */
    public Optional<String> supersededBy() {
      return Optional.ofNullable(request.getSupersededByRequestId());
    }

    /** The Takeover that resolved it ({@code resolved_by_takeover_id}), if taken over. */
    public Optional<String> takeoverId() {
      return Optional.ofNullable(request.getResolvedByTakeoverId());
    }
  }

  /**
   * The await ended without learning an outcome: the Request may still be open, or may have been
   * answered in a way this client never saw. Never an approval.
   *
   * @param outcome {@link Outcome#TIMED_OUT}, {@link Outcome#CANCELLED_BY_CALLER} or {@link
   *     Outcome#HOST_LOST}
   * @param waited how long the await ran, by the client's clock
   * @param lastSeen the Request as last read, if it was read at all (open)
   * @param failure the failure that lost the host ({@link Outcome#HOST_LOST}), or the last one
   *     before time ran out
   */
  record Unresolved(
      Outcome outcome,
      String workSessionId,
      String requestId,
      Duration waited,
      Optional<Request> lastSeen,
      Optional<JarvisFailure> failure)
      implements RequestResolution {

    public Unresolved {
      Objects.requireNonNull(outcome, "outcome");
      Objects.requireNonNull(workSessionId, "workSessionId");
      Objects.requireNonNull(requestId, "requestId");
      Objects.requireNonNull(waited, "waited");
      Objects.requireNonNull(lastSeen, "lastSeen");
      Objects.requireNonNull(failure, "failure");
      if (outcome.isRecordedByHost()) {
        throw new IllegalArgumentException(outcome + " is recorded by a host");
      }
    }

    @Override
    public Optional<ApprovalScope> approval() {
      return Optional.empty();
    }
  }
}
