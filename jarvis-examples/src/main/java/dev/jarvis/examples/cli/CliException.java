package dev.jarvis.examples.cli;

/** The tool could not do its job: one line for stderr, exit 2. */
final class CliException extends Exception {
  private static final long serialVersionUID = 1L;

  CliException(String message) {
    super(message);
  }
}
