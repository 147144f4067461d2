package dev.jarvis.host;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/**
 * An event the host writes on its own, with no call behind it: today a {@code request.expired}
 * event, written when a member next touches a WorkSession one of whose Requests is past its {@code
 * expires_at} (docs/host.md, "Request expiry"). A {@link CommitHook} sees it inside its unit of
 * work ({@link CommitHook#beforeHostCommit}), a {@link ProtocolListener} after it committed ({@link
 * ProtocolListener#hostWrote}), so an outbox misses no event of the chain.
 *
 * @param workSessionId the WorkSession whose chain took the event
 * @param event the appended event, as stored
 * @param records the protocol records written with it (the expired Request)
 */
public record HostWrittenEvent(String workSessionId, JsonNode event, List<StoredRecord> records) {

  public HostWrittenEvent {
    Objects.requireNonNull(workSessionId, "workSessionId");
    Objects.requireNonNull(event, "event");
    records = List.copyOf(records);
  }
}
