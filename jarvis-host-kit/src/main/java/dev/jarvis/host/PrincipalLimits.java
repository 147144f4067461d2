package dev.jarvis.host;

/**
 * How much of the host, and of its humans' attention, one principal may hold at once. A Policy's
 * {@code request_limits} bound one WorkSession; these bound the host across WorkSessions, so one
 * credential cannot open WorkSessions without end, nor aim Requests from many WorkSessions at one
 * human. A call past a limit is refused and the refusal names the limit ({@code docs/host.md},
 * "Per-principal limits").
 */
public final class PrincipalLimits {
  private final int openWorkSessionsPerActor;
  private final int pendingRequestsPerTargetHuman;

  private PrincipalLimits(int openWorkSessionsPerActor, int pendingRequestsPerTargetHuman) {
    // Zero would refuse every WorkSession or Request: a host that wants that turns the feature off
    // at its credentials, not here, so a typo cannot silently stop the host.
    if (openWorkSessionsPerActor < 1 || pendingRequestsPerTargetHuman < 1) {
      throw new IllegalArgumentException("per-principal limits must be at least 1");
    }
    this.openWorkSessionsPerActor = openWorkSessionsPerActor;
    this.pendingRequestsPerTargetHuman = pendingRequestsPerTargetHuman;
  }

  /**
   * How many WorkSessions one Actor may have created that are not yet completed, failed, cancelled
   * or closed (default {@value #DEFAULT_OPEN_WORK_SESSIONS_PER_ACTOR}); past it createWorkSession
   * is {@code unauthorized_actor}.
   */
  public int openWorkSessionsPerActor() {
    return openWorkSessionsPerActor;
  }

  /**
   * How many open (pending or acknowledged) Requests may name one human Worker as {@code
   * target_human_worker_id}, across all WorkSessions (default {@value
   * #DEFAULT_PENDING_REQUESTS_PER_TARGET_HUMAN}); past it createRequest is {@code
   * request_livelock}.
   */
  public int pendingRequestsPerTargetHuman() {
    return pendingRequestsPerTargetHuman;
  }

  /**
   * Open WorkSessions per Actor unless configured otherwise: well above what one person or agent
   * works on at once, far below what a runaway or hostile agent would open.
   */
  public static final int DEFAULT_OPEN_WORK_SESSIONS_PER_ACTOR = 100;

  /**
   * Open Requests per target human unless configured otherwise: more than a person answers in a
   * sitting, and a tenth of the 1,000 one agent token could aim at one human without it.
   */
  public static final int DEFAULT_PENDING_REQUESTS_PER_TARGET_HUMAN = 50;

  /** The defaults. */
  public static final PrincipalLimits DEFAULTS =
      new PrincipalLimits(
          DEFAULT_OPEN_WORK_SESSIONS_PER_ACTOR, DEFAULT_PENDING_REQUESTS_PER_TARGET_HUMAN);

  /** These limits with another bound on one Actor's open WorkSessions. */
  public PrincipalLimits withOpenWorkSessionsPerActor(int openWorkSessionsPerActor) {
    return new PrincipalLimits(openWorkSessionsPerActor, pendingRequestsPerTargetHuman);
  }

  /** These limits with another bound on the open Requests aimed at one human. */
  public PrincipalLimits withPendingRequestsPerTargetHuman(int pendingRequestsPerTargetHuman) {
    return new PrincipalLimits(openWorkSessionsPerActor, pendingRequestsPerTargetHuman);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof PrincipalLimits o
        && openWorkSessionsPerActor == o.openWorkSessionsPerActor
        && pendingRequestsPerTargetHuman == o.pendingRequestsPerTargetHuman;
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(openWorkSessionsPerActor, pendingRequestsPerTargetHuman);
  }

  @Override
  public String toString() {
    return "PrincipalLimits[openWorkSessionsPerActor="
        + openWorkSessionsPerActor
        + ", pendingRequestsPerTargetHuman="
        + pendingRequestsPerTargetHuman
        + "]";
  }
}
