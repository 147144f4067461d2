package dev.jarvis.core.error;

import dev.jarvis.model.ProtocolErrorId;

/** Default reason and remediation text for every {@code error_id} of the spec. */
public final class ProtocolErrorCatalog {

  private ProtocolErrorCatalog() {}

  /** What a caller should do about an error with this id. */
  public static String remediation(ProtocolErrorId errorId) {
    return "Correct the request so that it satisfies the " + errorId.getValue() + " rule.";
  }
}
