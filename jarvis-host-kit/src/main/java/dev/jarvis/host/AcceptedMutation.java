package dev.jarvis.host;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An accepted mutation as a {@link CommitHook} sees it, inside the store's unit of work.
 *
 * @param call the checked call
 * @param event the event it appends (genesis or appended); empty for a mutation outside any
 *     WorkSession (registerWorker, registerActor, submitOutcomeReport)
 * @param records the protocol records written with it
 * @param response the answer the host sends once the unit commits
 */
public record AcceptedMutation(
    ProtocolCall call,
    Optional<JsonNode> event,
    List<StoredRecord> records,
    StoredResponse response) {

  public AcceptedMutation {
    Objects.requireNonNull(call, "call");
    Objects.requireNonNull(event, "event");
    records = List.copyOf(records);
    Objects.requireNonNull(response, "response");
  }
}
