package dev.jarvis.cli;

/** The tool could not do its job: one line for stderr, exit 2. */
final class CliException extends Exception {
  private static final long serialVersionUID = 1L;

  CliException(String message) {
    super(message);
  }

  /** Input the protocol refuses, named as the host would name it: error_id, field, reason. */
  static CliException refused(dev.jarvis.core.error.ProtocolViolation violation) {
    return new CliException(
        violation.errorId().getValue() + " at " + violation.field() + ": " + violation.reason());
  }
}
