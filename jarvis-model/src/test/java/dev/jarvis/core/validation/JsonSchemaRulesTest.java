package dev.jarvis.core.validation;

import static dev.jarvis.core.validation.Payloads.array;
import static dev.jarvis.core.validation.Payloads.object;
import static dev.jarvis.core.validation.Payloads.strings;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/** Rule 1: the full JSON Schema of each record, and the error ids its breaches map to. */
class JsonSchemaRulesTest extends PayloadRuleTable {

  static Stream<Arguments> refused() {
    return Stream.of(
        refused(
            "a string where an integer travels",
            "WorkSession",
            n -> n.put("revision", "1"),
            "unknown_state",
            "/revision"),
        refused(
            "a fraction where an integer travels",
            "WorkSession",
            n -> n.put("revision", 1.5),
            "unknown_state",
            "/revision"),
        refused(
            "a missing required field",
            "WorkSession",
            n -> n.remove("human_worker_id"),
            "unknown_state",
            "/human_worker_id"),
        refused(
            "an unknown field",
            "WorkSession",
            n -> n.put("colour", "blue"),
            "unknown_state",
            "/colour"),
        refused(
            "an unknown field in a nested record",
            "Request",
            n -> ((ObjectNode) array(n, "options").get(0)).put("colour", "blue"),
            "unknown_state",
            "/options/0/colour"),
        refused(
            "a value outside its enum",
            "PolicyDecision",
            n -> n.put("result", "maybe"),
            "unknown_state",
            "/result"),
        refused(
            "a protocol_version other than v0.1",
            "WorkSession",
            n -> n.put("protocol_version", "v0.2"),
            "unsupported_protocol_version",
            "/protocol_version"),
        refused(
            "no protocol_version",
            "Request",
            n -> n.remove("protocol_version"),
            "missing_protocol_version",
            "/protocol_version"),
        refused(
            "review_required false on a MemoryProposal",
            "MemoryProposal",
            n -> n.put("review_required", false),
            "silent_memory_mutation",
            "/review_required"),
        refused(
            "review_required as the text true",
            "MemoryProposal",
            n -> n.put("review_required", "true"),
            "silent_memory_mutation",
            "/review_required"),
        refused(
            "a JarvisId with a space",
            "WorkSession",
            n -> n.put("id", "ws protocol"),
            "unknown_state",
            "/id"),
        refused(
            "a JarvisId with a trailing newline",
            "WorkSession",
            n -> n.put("id", "ws-protocol-001\n"),
            "unknown_state",
            "/id"),
        refused(
            "an empty JarvisId, once though two keywords fail",
            "WorkSession",
            n -> n.put("id", ""),
            "unknown_state",
            "/id"),
        refused(
            "a JarvisId of 161 characters",
            "WorkSession",
            n -> n.put("id", "w".repeat(161)),
            "unknown_state",
            "/id"),
        refused(
            "a negative revision",
            "WorkSession",
            n -> n.put("revision", -1),
            "unknown_state",
            "/revision"),
        refused(
            "a confidence above 1",
            "MemoryProposal",
            n -> n.put("confidence", 1.5),
            "unknown_state",
            "/confidence"),
        refused(
            "no options on a Request",
            "Request",
            n -> n.set("options", strings()),
            "unknown_state",
            "/options"),
        refused(
            "a repeated grant (plain uniqueItems)",
            "Worker",
            n -> object(n, "authority_scope").set("grants", strings("grant:a", "grant:a")),
            "unknown_state",
            "/authority_scope/grants"),
        refused(
            "a repeated request ref in an EvidenceManifest (plain uniqueItems)",
            "EvidenceManifest",
            n -> n.set("request_refs", strings("req-1", "req-1")),
            "unknown_state",
            "/request_refs"),
        refused(
            "month 13",
            "WorkSession",
            n -> n.put("created_at", "2026-13-12T18:00:00Z"),
            "unknown_state",
            "/created_at"),
        refused(
            "February 30",
            "WorkSession",
            n -> n.put("created_at", "2026-02-30T18:00:00Z"),
            "unknown_state",
            "/created_at"),
        refused(
            "hour 24",
            "WorkSession",
            n -> n.put("created_at", "2026-06-12T24:00:00Z"),
            "unknown_state",
            "/created_at"),
        refused(
            "a timestamp without offset",
            "WorkSession",
            n -> n.put("created_at", "2026-06-12T18:00:00"),
            "unknown_state",
            "/created_at"),
        refused(
            "a space instead of T",
            "WorkSession",
            n -> n.put("created_at", "2026-06-12 18:00:00Z"),
            "unknown_state",
            "/created_at"),
        refused(
            "an offset without colon",
            "WorkSession",
            n -> n.put("created_at", "2026-06-12T18:00:00+0200"),
            "unknown_state",
            "/created_at"),
        refused(
            "a leap second on an ordinary day",
            "WorkSession",
            n -> n.put("created_at", "2026-06-12T23:59:60Z"),
            "unknown_state",
            "/created_at"),
        refused(
            "a nested timestamp (ApprovalScope.expires_at)",
            "Review",
            n -> object(n, "approval_scope").put("expires_at", "2026-06-31T18:36:00Z"),
            "invalid_approval_scope",
            "/approval_scope/expires_at"),
        refused(
            "an empty objective",
            "WorkSession",
            n -> n.put("objective", ""),
            "missing_objective",
            "/objective"),
        refused(
            "no objective on an EvidenceManifest",
            "EvidenceManifest",
            n -> n.remove("objective"),
            "missing_objective",
            "/objective"),
        refused(
            "a Request without its PolicyDecision",
            "Request",
            n -> n.remove("policy_decision_id"),
            "missing_policy_decision",
            "/policy_decision_id"),
        refused(
            "a WorkSession without its Policy",
            "WorkSession",
            n -> n.remove("policy_id"),
            "missing_policy",
            "/policy_id"),
        refused(
            "a JarvisEvent without its Actor",
            "JarvisEvent",
            n -> n.remove("actor_id"),
            "missing_actor",
            "/actor_id"),
        refused(
            "evidence without source events",
            "EvidenceManifest",
            n ->
                ((ObjectNode) array(n, "evidence_item_refs").get(0))
                    .set("source_event_refs", strings()),
            "missing_evidence_event_refs",
            "/evidence_item_refs/0/source_event_refs"),
        refused(
            "an OutcomeReport without LearningRecords",
            "OutcomeReport",
            n -> n.set("learning_record_refs", strings()),
            "outcome_report_without_learning_record",
            "/learning_record_refs"),
        refused(
            "an ApprovalScope usable zero times",
            "Review",
            n -> object(n, "approval_scope").put("max_uses", 0),
            "invalid_approval_scope",
            "/approval_scope/max_uses"),
        refused(
            "an ApprovalScope whose approved action is empty",
            "Review",
            n -> object(object(n, "approval_scope"), "approved_action").put("action", ""),
            "invalid_approval_scope",
            "/approval_scope/approved_action/action"),
        refused(
            "a resumed Takeover with an empty reconciliation list",
            "Takeover",
            n ->
                n.put("state", "resumed")
                    .put("resumed_by_actor_id", "actor-agent-001")
                    .put("resolved_at", "2026-06-12T18:30:00Z")
                    .set("reconciliation_refs", strings()),
            "missing_reconciliation_refs",
            "/reconciliation_refs"));
  }

  static Stream<Arguments> accepted() {
    return Stream.of(
        accepted(
            "lower-case t and z in a timestamp",
            "WorkSession",
            n -> n.put("created_at", "2026-06-12t18:00:00z")),
        accepted(
            "a timestamp with offset and fraction",
            "WorkSession",
            n -> n.put("created_at", "2026-06-12T20:00:00.123456+02:00")),
        accepted(
            "a real leap second", "WorkSession", n -> n.put("created_at", "2016-12-31T23:59:60Z")),
        accepted(
            "a real leap second seen from +01:00",
            "WorkSession",
            n -> n.put("created_at", "2017-01-01T00:59:60+01:00")),
        accepted(
            "February 29 of a leap year",
            "WorkSession",
            n -> n.put("created_at", "2028-02-29T00:00:00Z")),
        accepted("revision 0", "WorkSession", n -> n.put("revision", 0)),
        accepted("confidence 0", "MemoryProposal", n -> n.put("confidence", 0)),
        accepted("confidence 1", "MemoryProposal", n -> n.put("confidence", 1)),
        accepted(
            "a JarvisId using every allowed punctuation",
            "WorkSession",
            n -> n.put("id", "ws.protocol_001:a-b")),
        accepted("a JarvisId of 160 characters", "WorkSession", n -> n.put("id", "w".repeat(160))),
        accepted("an integer where a number travels", "Contribution", n -> n.put("confidence", 1)),
        accepted("an ApprovalScope on a narrow Review", "Review", n -> n.put("decision", "narrow")),
        accepted(
            "an empty takeover_refs list where none is required",
            "EvidenceManifest",
            n -> n.set("takeover_refs", strings())));
  }
}
