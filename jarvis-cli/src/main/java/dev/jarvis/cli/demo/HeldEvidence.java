package dev.jarvis.cli.demo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.audit.AuditCheck;
import dev.jarvis.client.audit.AuditReport;
import dev.jarvis.client.audit.AuditReport.Finding;
import dev.jarvis.client.audit.AuditReport.Verdict;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.model.ProtocolErrorId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The walkthrough's audit where the host cannot be read back (no {@code event-log}): what the demo
 * holds, checked offline. It holds the events it appended (as the host stored them), the
 * WorkSession's cursor read after the export, and the EvidenceManifest. From those it checks what
 * it can, one finding per {@link AuditCheck} as an online audit reports them:
 *
 * <ul>
 *   <li>{@code chain}: each event the demo appended re-hashes to its {@code event_hash} and is of
 *       the WorkSession, in rising sequence; a bad one fails the check at its index. The chain from
 *       genesis cannot be checked (the host's own events are read only through {@code event-log}):
 *       skipped, saying so, when the demo's own events pass.
 *   <li>{@code revision}, {@code last_event_hash}: the WorkSession ends at the demo's last event,
 *       its completion (nothing is appended after a completion but a close, which the demo does not
 *       send; an export appends nothing).
 *   <li>{@code manifest_root}: the manifest is of the WorkSession and its {@code event_chain_root}
 *       is the WorkSession's {@code last_event_hash}.
 *   <li>{@code manifest_refs}: passes when every {@code source_event_refs} entry names an event the
 *       demo appended; entries naming other events cannot be checked, and it says how many.
 *   <li>{@code signatures}: skipped, as online: the demo is given no Actor keys.
 * </ul>
 *
 * A check that could not run is {@link Verdict#SKIPPED} with a detail starting {@value
 * #COULD_NOT_CHECK} and the reason, so the report passes when everything checkable passed.
 */
public final class HeldEvidence {

  /** How the detail of a check that could not run without {@code event-log} begins. */
  public static final String COULD_NOT_CHECK = "could not check: ";

  private HeldEvidence() {}

  /**
   * The offline audit of what {@code result} holds.
   *
   * @param why why the host's log could not be read (the host's refusal, in words)
   */
  public static AuditReport audit(AgentWalkthrough.Result result, String why) {
    String ws = result.workSessionId();
    List<JsonNode> own = new ArrayList<>();
    result.appended().forEach(e -> own.add(JarvisJson.mapper().valueToTree(e)));
    ChainCursor at = result.finalCursor();
    JsonNode manifest = JarvisJson.mapper().valueToTree(result.manifest());
    List<Finding> findings = new ArrayList<>();
    findings.add(chain(ws, own, at, why));
    Optional<JsonNode> last =
        own.isEmpty() ? Optional.empty() : Optional.of(own.get(own.size() - 1));
    long lastSequence = last.map(e -> e.path("sequence").asLong()).orElse(0L);
    String lastHash = last.map(e -> e.path("event_hash").asText()).orElse("(none appended)");
    findings.add(
        at.revision() == lastSequence
            ? passed(
                AuditCheck.REVISION,
                "revision "
                    + at.revision()
                    + " = the sequence of the last event the demo appended (its completion)")
            : failed(
                AuditCheck.REVISION,
                "the WorkSession is at revision "
                    + at.revision()
                    + ", the demo's last event (its completion) at sequence "
                    + lastSequence,
                OptionalLong.empty(),
                ProtocolErrorId.STALE_WORK_SESSION_REVISION));
    findings.add(
        at.lastEventHash().equals(lastHash)
            ? passed(AuditCheck.LAST_EVENT_HASH, at.lastEventHash() + " = the demo's completion")
            : failed(
                AuditCheck.LAST_EVENT_HASH,
                "the WorkSession's last_event_hash is '"
                    + at.lastEventHash()
                    + "', the demo's completion's event_hash '"
                    + lastHash
                    + "'",
                OptionalLong.of(Math.max(0, lastSequence - 1)),
                ProtocolErrorId.INVALID_EVENT_HASH));
    findings.add(root(ws, manifest, at));
    findings.add(refs(manifest, own, why));
    findings.add(
        new Finding(
            AuditCheck.SIGNATURES,
            Verdict.SKIPPED,
            "no Actor keys given",
            OptionalLong.empty(),
            Optional.empty()));
    return new AuditReport(ws, own.size(), findings);
  }

  /** The checks the report could not run, by their names. */
  public static List<String> couldNotCheck(AuditReport report) {
    return report.findings().stream()
        .filter(f -> f.verdict() == Verdict.SKIPPED && f.detail().startsWith(COULD_NOT_CHECK))
        .map(f -> f.check().wireName())
        .toList();
  }

  private static Finding chain(String ws, List<JsonNode> own, ChainCursor at, String why) {
    long previous = 0;
    for (JsonNode event : own) {
      long sequence = event.path("sequence").asLong();
      long index = Math.max(0, sequence - 1);
      if (sequence <= previous) {
        return failed(
            AuditCheck.CHAIN,
            "/" + index + "/sequence: " + sequence + " after the demo's event at " + previous,
            OptionalLong.of(index),
            ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH);
      }
      // The link from the event's own previous_hash: what it claims; its hash, recomputed.
      Optional<ProtocolViolation> bad =
          EventChain.checkNext(
              new ChainCursor(sequence - 1, event.path("previous_hash").asText()), event);
      if (bad.isEmpty() && !ws.equals(event.path("work_session_id").asText())) {
        bad =
            Optional.of(
                ProtocolViolation.of(
                    ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH,
                    "jarvis_event",
                    "/work_session_id",
                    "the event belongs to WorkSession '"
                        + event.path("work_session_id").asText()
                        + "'"));
      }
      if (bad.isPresent()) {
        return failed(
            AuditCheck.CHAIN,
            "/" + index + bad.get().field() + ": " + bad.get().reason(),
            OptionalLong.of(index),
            bad.get().errorId());
      }
      previous = sequence;
    }
    return skipped(
        AuditCheck.CHAIN,
        COULD_NOT_CHECK
            + "the chain from genesis ("
            + at.revision()
            + " events, "
            + (at.revision() - own.size())
            + " of them appended by the host) is read only through event-log: "
            + why
            + " The "
            + own.size()
            + " events the demo appended re-hash to their event_hash.");
  }

  private static Finding root(String ws, JsonNode manifest, ChainCursor at) {
    String of = manifest.path("work_session_id").asText();
    String root = manifest.path("event_chain_root").asText();
    if (!ws.equals(of)) {
      return failed(
          AuditCheck.MANIFEST_ROOT,
          "the manifest is of WorkSession '" + of + "'",
          OptionalLong.empty(),
          ProtocolErrorId.INVALID_EXPORT);
    }
    return root.equals(at.lastEventHash())
        ? passed(AuditCheck.MANIFEST_ROOT, root + " = the WorkSession's last_event_hash")
        : failed(
            AuditCheck.MANIFEST_ROOT,
            "event_chain_root is '"
                + root
                + "', the WorkSession's last_event_hash '"
                + at.lastEventHash()
                + "'",
            OptionalLong.empty(),
            ProtocolErrorId.INVALID_EXPORT);
  }

  private static Finding refs(JsonNode manifest, List<JsonNode> own, String why) {
    Set<String> ids = new HashSet<>();
    own.forEach(e -> ids.add(e.path("id").asText()));
    long named = 0;
    long others = 0;
    for (JsonNode item : manifest.path("evidence_item_refs")) {
      for (JsonNode ref : item.path("source_event_refs")) {
        named++;
        if (!ids.contains(ref.asText())) {
          others++;
        }
      }
    }
    if (others == 0) {
      return passed(
          AuditCheck.MANIFEST_REFS, named + " source_event_refs, each an event the demo appended");
    }
    return skipped(
        AuditCheck.MANIFEST_REFS,
        COULD_NOT_CHECK
            + others
            + " of "
            + named
            + " source_event_refs name events the host appended, read only through event-log: "
            + why);
  }

  private static Finding passed(AuditCheck check, String detail) {
    return new Finding(check, Verdict.PASSED, detail, OptionalLong.empty(), Optional.empty());
  }

  private static Finding skipped(AuditCheck check, String detail) {
    return new Finding(check, Verdict.SKIPPED, detail, OptionalLong.empty(), Optional.empty());
  }

  private static Finding failed(
      AuditCheck check, String detail, OptionalLong index, ProtocolErrorId errorId) {
    return new Finding(check, Verdict.FAILED, detail, index, Optional.of(errorId));
  }
}
