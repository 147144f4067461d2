package dev.jarvis.conformance;

/**
 * A check that cannot run against this host as configured: ends that check as SKIP with the reason,
 * never as FAIL.
 */
final class CheckSkipped extends RuntimeException {

  private static final long serialVersionUID = 1L;

  CheckSkipped(String reason) {
    super(reason);
  }
}
