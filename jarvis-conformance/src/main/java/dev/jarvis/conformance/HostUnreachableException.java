package dev.jarvis.conformance;

/** The live host could not be reached at all, so no check could run. */
public final class HostUnreachableException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  HostUnreachableException(String message, Throwable cause) {
    super(message, cause);
  }
}
