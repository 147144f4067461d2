package dev.jarvis.client.audit;

/** What an audit of a WorkSession's event log checks, in the order it reports them. */
public enum AuditCheck {
  /**
   * Every event re-hashed from genesis and linked ({@code dev.jarvis.core.chain.EventChain}): each
   * {@code sequence} the next, each {@code previous_hash} the last {@code event_hash}, each {@code
   * event_hash} the hash of its event, each event of the audited WorkSession; at least the genesis
   * event.
   */
  CHAIN("chain"),
  /** The last event's {@code sequence} (the number of events) is the WorkSession's revision. */
  REVISION("revision"),
  /** The last event's {@code event_hash} is the WorkSession's {@code last_event_hash}. */
  LAST_EVENT_HASH("last_event_hash"),
  /** The EvidenceManifest's {@code event_chain_root} is the last event's {@code event_hash}. */
  MANIFEST_ROOT("manifest_root"),
  /** Every {@code source_event_refs} entry of the manifest's evidence items names an event. */
  MANIFEST_REFS("manifest_refs"),
  /**
   * Every signed event's {@code actor_signature} holds, checked with the Actors' keys the audit was
   * given ({@code dev.jarvis.core.signature.ActorKeys}): a known key of the event's Actor, not
   * revoked at the event's timestamp, signing the event's recomputed hash. Unsigned events are
   * counted, not failed: the host writes its own events unsigned. Skipped without keys.
   */
  SIGNATURES("signatures");

  private final String wireName;

  AuditCheck(String wireName) {
    this.wireName = wireName;
  }

  /** The name in JSON reports. */
  public String wireName() {
    return wireName;
  }
}
