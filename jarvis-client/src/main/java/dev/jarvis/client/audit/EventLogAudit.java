package dev.jarvis.client.audit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.audit.AuditReport.Finding;
import dev.jarvis.core.chain.ChainBreak;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.signature.ActorKeys;
import dev.jarvis.core.signature.SignatureCheck;
import dev.jarvis.model.ProtocolErrorId;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Audits one WorkSession's event log as it streams past, an event at a time, so that a log of any
 * length is checked in constant memory (but for the event ids, kept only to check a manifest's
 * refs): {@link #accept} each event in the order the host gave them, then {@link #report}. The
 * chain itself is judged by the protocol core's {@link EventChain}, the same rules the host kit and
 * the client's {@code event-chain} link apply; this adds only what an outsider can compare it with
 * (the WorkSession's cursor, an EvidenceManifest). Not thread-safe.
 */
public final class EventLogAudit {

  private final String workSessionId;
  private final boolean keepIds;
  private final Set<String> ids = new HashSet<>();
  private ChainCursor cursor = ChainCursor.GENESIS;
  private Optional<ChainBreak> broken = Optional.empty();
  private long count;
  private Optional<JsonNode> last = Optional.empty();
  private final Optional<ActorKeys> keys;
  private long verified;
  private long unsigned;
  private Optional<Finding> badSignature = Optional.empty();

  /**
   * An audit of {@code workSessionId}'s log, without signature checks.
   *
   * @param keepIds whether to keep the events' ids, to check a manifest's refs
   */
  public EventLogAudit(String workSessionId, boolean keepIds) {
    this(workSessionId, keepIds, Optional.empty());
  }

  /**
   * An audit of {@code workSessionId}'s log, verifying each signed event with {@code keys}.
   *
   * @param keepIds whether to keep the events' ids, to check a manifest's refs
   * @param keys the Actors' public keys; empty: the signature check is skipped
   */
  public EventLogAudit(String workSessionId, boolean keepIds, Optional<ActorKeys> keys) {
    this.workSessionId = Objects.requireNonNull(workSessionId, "workSessionId");
    this.keepIds = keepIds;
    this.keys = Objects.requireNonNull(keys, "keys");
  }

  /** The next event of the log. */
  public void accept(JsonNode event) {
    long index = count++;
    last = Optional.of(event);
    if (keepIds) {
      ids.add(event.path("id").asText());
    }
    keys.ifPresent(k -> checkSignature(k, event, index));
    if (broken.isPresent()) {
      return; // the first break is the finding; a chain past it has nothing left to link to
    }
    Optional<ChainBreak> link = EventChain.verify(cursor, List.of(event));
    if (link.isEmpty() && !workSessionId.equals(event.path("work_session_id").asText())) {
      link =
          Optional.of(
              new ChainBreak(
                  0,
                  ProtocolViolation.of(
                      ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH,
                      "jarvis_event",
                      "/0/work_session_id",
                      "the event belongs to WorkSession '"
                          + event.path("work_session_id").asText()
                          + "', not '"
                          + workSessionId
                          + "'")));
    }
    if (link.isPresent()) {
      ProtocolViolation v = link.get().violation();
      // verify() points into the one-event list it was given; point into the whole log instead.
      String field = "/" + index + (v.field().startsWith("/0") ? v.field().substring(2) : "");
      broken =
          Optional.of(
              new ChainBreak(
                  (int) Math.min(index, Integer.MAX_VALUE),
                  ProtocolViolation.of(v.errorId(), v.objectType(), field, v.reason())));
      return;
    }
    cursor = cursor.advance(event.path("event_hash").asText());
  }

  /**
   * The findings.
   *
   * @param session the WorkSession's cursor as its host reports it; empty offline, where the
   *     revision and last-hash checks are skipped
   * @param manifest the WorkSession's EvidenceManifest; empty when it was not exported, where the
   *     manifest checks are skipped
   */
  public AuditReport report(Optional<ChainCursor> session, Optional<JsonNode> manifest) {
    List<Finding> findings = new ArrayList<>();
    findings.add(chain());
    Optional<String> lastHash = last.map(e -> e.path("event_hash").asText());
    long lastSequence = last.map(e -> e.path("sequence").asLong()).orElse(0L);
    if (session.isEmpty()) {
      findings.add(Finding.skipped(AuditCheck.REVISION, "no WorkSession read (offline)"));
      findings.add(Finding.skipped(AuditCheck.LAST_EVENT_HASH, "no WorkSession read (offline)"));
    } else {
      ChainCursor expected = session.get();
      findings.add(
          expected.revision() == count && lastSequence == count
              ? Finding.passed(
                  AuditCheck.REVISION,
                  "revision " + expected.revision() + " = " + count + " events")
              : Finding.failed(
                  AuditCheck.REVISION,
                  "the WorkSession is at revision "
                      + expected.revision()
                      + ", the log holds "
                      + count
                      + " events ending at sequence "
                      + lastSequence,
                  ProtocolErrorId.STALE_WORK_SESSION_REVISION));
      findings.add(
          lastHash.equals(Optional.of(expected.lastEventHash()))
              ? Finding.passed(AuditCheck.LAST_EVENT_HASH, expected.lastEventHash())
              : Finding.failedAt(
                  AuditCheck.LAST_EVENT_HASH,
                  "the WorkSession's last_event_hash is '"
                      + expected.lastEventHash()
                      + "', the log's last event_hash "
                      + lastHash.map(h -> "'" + h + "'").orElse("absent (no events)"),
                  Math.max(0, count - 1),
                  ProtocolErrorId.INVALID_EVENT_HASH));
    }
    if (manifest.isEmpty()) {
      findings.add(Finding.skipped(AuditCheck.MANIFEST_ROOT, "no EvidenceManifest given"));
      findings.add(Finding.skipped(AuditCheck.MANIFEST_REFS, "no EvidenceManifest given"));
    } else {
      findings.add(root(manifest.get(), lastHash));
      findings.add(refs(manifest.get()));
    }
    findings.add(signatures());
    return new AuditReport(workSessionId, count, findings);
  }

  /** Judges one event's signature; the first failure is the finding. */
  private void checkSignature(ActorKeys actorKeys, JsonNode event, long index) {
    SignatureCheck check = actorKeys.check(event, signedAt(event));
    switch (check.outcome()) {
      case VERIFIED -> verified++;
      case UNSIGNED -> unsigned++;
      default -> {
        if (badSignature.isEmpty()) {
          ProtocolViolation v = check.toViolation();
          badSignature =
              Optional.of(
                  Finding.failedAt(
                      AuditCheck.SIGNATURES,
                      "/"
                          + index
                          + v.field()
                          + ": "
                          + check.outcome().name().toLowerCase(Locale.ROOT)
                          + ": "
                          + check.reason(),
                      index,
                      v.errorId()));
        }
      }
    }
  }

  /**
   * When the event says it was signed: its timestamp, which its host held to its clock at append.
   * An event without a readable one is judged as of the end of time, when every revoked key is.
   */
  private static Instant signedAt(JsonNode event) {
    try {
      return OffsetDateTime.parse(event.path("timestamp").asText()).toInstant();
    } catch (DateTimeParseException e) {
      return Instant.MAX;
    }
  }

  private Finding signatures() {
    if (keys.isEmpty()) {
      return Finding.skipped(AuditCheck.SIGNATURES, "no Actor keys given");
    }
    return badSignature.orElseGet(
        () ->
            Finding.passed(
                AuditCheck.SIGNATURES,
                verified + " signed events verified, " + unsigned + " unsigned"));
  }

  private Finding chain() {
    if (broken.isPresent()) {
      ChainBreak b = broken.get();
      return Finding.failedAt(
          AuditCheck.CHAIN,
          b.violation().field() + ": " + b.violation().reason(),
          b.index(),
          b.violation().errorId());
    }
    if (count == 0) {
      return Finding.failedAt(
          AuditCheck.CHAIN,
          "the log holds no events; every WorkSession has its genesis event",
          0,
          ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH);
    }
    return Finding.passed(AuditCheck.CHAIN, count + " events re-hashed and linked from genesis");
  }

  private Finding root(JsonNode manifest, Optional<String> lastHash) {
    String root = manifest.path("event_chain_root").asText();
    if (!workSessionId.equals(manifest.path("work_session_id").asText())) {
      return Finding.failed(
          AuditCheck.MANIFEST_ROOT,
          "the manifest is of WorkSession '" + manifest.path("work_session_id").asText() + "'",
          ProtocolErrorId.INVALID_EXPORT);
    }
    return lastHash.equals(Optional.of(root))
        ? Finding.passed(AuditCheck.MANIFEST_ROOT, root)
        : Finding.failedAt(
            AuditCheck.MANIFEST_ROOT,
            "event_chain_root is '"
                + root
                + "', the log's last event_hash "
                + lastHash.map(h -> "'" + h + "'").orElse("absent (no events)"),
            Math.max(0, count - 1),
            ProtocolErrorId.INVALID_EXPORT);
  }

  private Finding refs(JsonNode manifest) {
    if (!keepIds) {
      return Finding.skipped(AuditCheck.MANIFEST_REFS, "the audit kept no event ids");
    }
    long named = 0;
    JsonNode items = manifest.path("evidence_item_refs");
    for (int i = 0; i < items.size(); i++) {
      JsonNode refs = items.get(i).path("source_event_refs");
      for (int j = 0; j < refs.size(); j++) {
        named++;
        if (!ids.contains(refs.get(j).asText())) {
          return Finding.failed(
              AuditCheck.MANIFEST_REFS,
              "/evidence_item_refs/"
                  + i
                  + "/source_event_refs/"
                  + j
                  + " names '"
                  + refs.get(j).asText()
                  + "', no event of the log",
              ProtocolErrorId.MISSING_EVIDENCE_EVENT_REFS);
        }
      }
    }
    return Finding.passed(AuditCheck.MANIFEST_REFS, named + " source_event_refs, each an event");
  }
}
