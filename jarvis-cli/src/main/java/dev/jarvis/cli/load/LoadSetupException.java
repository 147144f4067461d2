package dev.jarvis.cli.load;

/** The run could not start: the host refused to register the load's Workers or Actors. */
public final class LoadSetupException extends Exception {
  private static final long serialVersionUID = 1L;

  LoadSetupException(String message) {
    super(message);
  }
}
