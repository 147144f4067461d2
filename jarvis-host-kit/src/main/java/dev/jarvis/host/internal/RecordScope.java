package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.ID_TAKEN;
import static dev.jarvis.host.internal.Refusals.refuse;

import dev.jarvis.host.HostStores;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredSession;
import dev.jarvis.model.ProtocolErrorId;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Records belong to their WorkSession: a record id is unique per kind across the host, so the id a
 * WorkSession used is refused in every other one. The store keys records by kind, WorkSession and
 * id and answers which WorkSession holds a (kind, id) ({@link
 * dev.jarvis.host.RecordStore#findInAnyWorkSession}), and no operation in one WorkSession can read,
 * replace, resolve or count another's record. A reuse is refused as the kind's own reuse is within
 * a WorkSession ({@code duplicate_request_mismatch} for a Request, {@code invalid_transition}
 * otherwise), and as {@code sealed_evidence_mutation} when the record belongs to a sealed
 * WorkSession, whose EvidenceManifest names it.
 *
 * <p>This check reads before the commit, so host instances sharing a store can both pass it in a
 * race; the store's commit enforces the same uniqueness ({@link HostStores#commit}) and the host
 * runs this check again on a conflict, so that the loser gets the id's refusal, not a stale cursor.
 */
final class RecordScope {

  private RecordScope() {}

  /** Refuses if a record about to be written has the id of another WorkSession's record. */
  static void check(List<StoredRecord> written, String workSessionId, HostStores stores) {
    for (StoredRecord record : written) {
      Optional<StoredRecord> existing =
          stores.records().findInAnyWorkSession(record.kind(), record.id());
      if (existing.isEmpty() || existing.get().workSessionId().equals(Optional.of(workSessionId))) {
        continue;
      }
      boolean sealed =
          existing
              .get()
              .workSessionId()
              .flatMap(id -> stores.sessions().find(id))
              .map(StoredSession::sealed)
              .orElse(false);
      ProtocolErrorId error =
          sealed
              ? ProtocolErrorId.SEALED_EVIDENCE_MUTATION
              : record.kind() == RecordKind.REQUEST
                  ? ProtocolErrorId.DUPLICATE_REQUEST_MISMATCH
                  : ProtocolErrorId.INVALID_TRANSITION;
      throw refuse(
          error,
          record.kind().name().toLowerCase(Locale.ROOT),
          "/id",
          "The id "
              + record.id()
              + " belongs to another WorkSession"
              + (sealed ? ", sealed by its EvidenceManifest" : "")
              + "; ids are unique per kind across this host.",
          ID_TAKEN);
    }
  }
}
