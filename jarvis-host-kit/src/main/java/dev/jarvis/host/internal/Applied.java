package dev.jarvis.host.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.host.StoredResponse;
import java.util.Optional;

/**
 * A call's answer as the dispatch produced it: whether it repeats a stored first response, and the
 * event its commit appended.
 */
public record Applied(StoredResponse response, boolean replay, Optional<JsonNode> appendedEvent) {

  static Applied read(StoredResponse response) {
    return new Applied(response, false, Optional.empty());
  }
}
