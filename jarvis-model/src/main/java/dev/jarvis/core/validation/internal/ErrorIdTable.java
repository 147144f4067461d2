package dev.jarvis.core.validation.internal;

import static dev.jarvis.model.ProtocolErrorId.INVALID_APPROVAL_SCOPE;
import static dev.jarvis.model.ProtocolErrorId.INVALID_CONTRIBUTOR_REFS;
import static dev.jarvis.model.ProtocolErrorId.INVALID_REQUEST_TRANSITION;
import static dev.jarvis.model.ProtocolErrorId.INVALID_TRANSITION;
import static dev.jarvis.model.ProtocolErrorId.MISSING_ACTOR;
import static dev.jarvis.model.ProtocolErrorId.MISSING_CONTRIBUTION_ACTOR;
import static dev.jarvis.model.ProtocolErrorId.MISSING_EVIDENCE_EVENT_REFS;
import static dev.jarvis.model.ProtocolErrorId.MISSING_OBJECTIVE;
import static dev.jarvis.model.ProtocolErrorId.MISSING_POLICY;
import static dev.jarvis.model.ProtocolErrorId.MISSING_POLICY_DECISION;
import static dev.jarvis.model.ProtocolErrorId.MISSING_PROTOCOL_VERSION;
import static dev.jarvis.model.ProtocolErrorId.MISSING_RECONCILIATION_REFS;
import static dev.jarvis.model.ProtocolErrorId.MISSING_REVIEW_RESOLUTION;
import static dev.jarvis.model.ProtocolErrorId.MISSING_SUPERSEDING_REQUEST;
import static dev.jarvis.model.ProtocolErrorId.MISSING_TAKEOVER_RESOLUTION;
import static dev.jarvis.model.ProtocolErrorId.OUTCOME_REPORT_WITHOUT_LEARNING_RECORD;
import static dev.jarvis.model.ProtocolErrorId.REQUEST_UNRESOLVED;
import static dev.jarvis.model.ProtocolErrorId.SHARED_CONTRIBUTION_WITHOUT_INDIVIDUAL_REFS;
import static dev.jarvis.model.ProtocolErrorId.SILENT_MEMORY_MUTATION;
import static dev.jarvis.model.ProtocolErrorId.SILENT_SKILL_ACTIVATION;
import static dev.jarvis.model.ProtocolErrorId.UNKNOWN_STATE;
import static dev.jarvis.model.ProtocolErrorId.UNSUPPORTED_PROTOCOL_VERSION;

import dev.jarvis.model.ProtocolErrorId;
import java.util.List;

/**
 * Which {@code error_id} a broken JSON Schema keyword is reported as. The spec has no generic
 * "schema violation" id, so this is a judgement, kept in one table: the first row that matches
 * wins, specific rows first, and the last row catches everything.
 *
 * <p>The rules themselves are never here: they are read from the spec. A row only names where a
 * rule sits (schema, field, keyword) and what to call its breach. Rows name spec schemas and
 * fields; a test checks that each still exists, so a renamed field cannot silently fall through.
 *
 * <p>Outside this table, by their own classifiers: {@code x-jarvis-forbidden-fields} and
 * host-private names ({@code forbidden_host_private_field}), {@code x-jarvis-unique-by} (the spec's
 * {@code x-jarvis-duplicate-rejection-id}), extension names ({@code invalid_extension_namespace},
 * {@code extension_core_field_override}) and unreadable payloads ({@code unknown_state}).
 */
final class ErrorIdTable {

  /** Rows with this for schema, field or keyword match any. */
  static final String ANY = "*";

  /** Where a row applies relative to the spec's {@code if/then} rules. */
  enum When {
    /** Inside or outside a {@code then}. */
    ALWAYS,
    /** Only inside the {@code then} of an {@code if/then} rule. */
    CONDITIONAL
  }

  /**
   * Where a broken keyword sits.
   *
   * @param schema the component schema that declares the field
   * @param field the property concerned: missing, unexpected, or holding the bad value
   * @param keyword the JSON Schema keyword that failed
   * @param components every component schema on the way, outermost first
   * @param conditional whether the keyword sits inside an {@code if/then} rule's {@code then}
   */
  record Site(
      String schema, String field, String keyword, List<String> components, boolean conditional) {}

  /**
   * One row of the table.
   *
   * @param schema the component schema; with {@link #within} true, any component on the way
   * @param within whether {@link #schema} may be any enclosing component, not only the declaring
   *     one
   */
  record Row(
      String schema,
      boolean within,
      String field,
      String keyword,
      When when,
      ProtocolErrorId errorId,
      String rationale) {

    boolean matches(Site site) {
      boolean schemaMatches =
          schema.equals(ANY)
              || (within ? site.components().contains(schema) : schema.equals(site.schema()));
      return schemaMatches
          && (field.equals(ANY) || field.equals(site.field()))
          && (keyword.equals(ANY) || keyword.equals(site.keyword()))
          && (when == When.ALWAYS || site.conditional());
    }
  }

  private static final List<Row> ROWS =
      List.of(
          // The spec's if/then rules: each broken rule names the missing resolution.
          then(
              "PolicyDecision",
              "request_id",
              "required",
              REQUEST_UNRESOLVED,
              "a deny or review_required decision blocks the action until a Request resolves it,"
                  + " so it must name that Request"),
          then(
              "Request",
              "resolved_by_review_id",
              "required",
              MISSING_REVIEW_RESOLUTION,
              "a Request resolved by review must name the Review"),
          then(
              "Request",
              "resolved_by_takeover_id",
              "required",
              MISSING_TAKEOVER_RESOLUTION,
              "a Request resolved by takeover must name the Takeover"),
          then(
              "Request",
              "superseded_by_request_id",
              "required",
              MISSING_SUPERSEDING_REQUEST,
              "a superseded Request must name the Request that supersedes it"),
          then(
              "Request",
              ANY,
              ANY,
              INVALID_REQUEST_TRANSITION,
              "resolution fields (resolved_at, closed_by_event_ref) missing for a terminal status,"
                  + " or present while the Request is still pending or acknowledged"),
          then(
              "Review",
              "takeover_id",
              "required",
              MISSING_TAKEOVER_RESOLUTION,
              "a takeover decision must name the Takeover that carries it out"),
          then(
              "Review",
              "approval_scope",
              ANY,
              INVALID_APPROVAL_SCOPE,
              "approve/narrow need a bounded ApprovalScope; other decisions must not carry one"),
          then(
              "Takeover",
              "reconciliation_refs",
              "required",
              MISSING_RECONCILIATION_REFS,
              "a resumed Takeover must reference its reconciliation"),
          then(
              "Takeover",
              ANY,
              ANY,
              INVALID_TRANSITION,
              "resumed needs resumed_by_actor_id and resolved_at; requested, locked and"
                  + " human_active must not carry resumption fields yet"),
          then(
              "Contribution",
              "contributor_refs",
              "minItems",
              SHARED_CONTRIBUTION_WITHOUT_INDIVIDUAL_REFS,
              "a shared Contribution must name at least two individual contributors"),
          then(
              "MemoryProposal",
              "review_refs",
              "required",
              SILENT_MEMORY_MUTATION,
              "an accepted MemoryProposal without review references is a silent memory change"),
          then(
              "SkillProposal",
              "review_refs",
              "required",
              SILENT_SKILL_ACTIVATION,
              "an accepted SkillProposal without review references is a silent skill activation"),
          then(
              ANY,
              ANY,
              ANY,
              INVALID_TRANSITION,
              "any other state-dependent rule: the record claims a state without what it needs"),
          // Rules that hold in every state.
          row(
              ANY,
              "protocol_version",
              "required",
              MISSING_PROTOCOL_VERSION,
              "the record does not say which protocol version it speaks"),
          row(
              ANY,
              "protocol_version",
              ANY,
              UNSUPPORTED_PROTOCOL_VERSION,
              "the record speaks another protocol version than v0.1"),
          row(ANY, "objective", "required", MISSING_OBJECTIVE, "no objective"),
          row(ANY, "objective", "minLength", MISSING_OBJECTIVE, "an empty objective"),
          row(
              "MemoryProposal",
              "review_required",
              ANY,
              SILENT_MEMORY_MUTATION,
              "review_required must be true: a MemoryProposal that skips review is a silent change"),
          row(
              "MemoryProposal",
              "review_refs",
              "minItems",
              SILENT_MEMORY_MUTATION,
              "an empty review reference list reviews nothing"),
          row(
              "SkillProposal",
              "review_refs",
              "minItems",
              SILENT_SKILL_ACTIVATION,
              "an empty review reference list reviews nothing"),
          row(
              "Contribution",
              "contributor_refs",
              "required",
              MISSING_CONTRIBUTION_ACTOR,
              "no contributor is attributed"),
          row(
              "Contribution",
              "contributor_refs",
              "minItems",
              MISSING_CONTRIBUTION_ACTOR,
              "an empty contributor list attributes nobody"),
          row(
              "ContributorRef",
              "actor_id",
              "required",
              MISSING_CONTRIBUTION_ACTOR,
              "a contributor named without the Actor that represented it"),
          row(
              "Contribution",
              "contributor_refs",
              ANY,
              INVALID_CONTRIBUTOR_REFS,
              "contributor_refs present but not a list of contributor references"),
          row(
              "ContributorRef",
              ANY,
              ANY,
              INVALID_CONTRIBUTOR_REFS,
              "a malformed contributor reference"),
          row(
              "Takeover",
              "reconciliation_refs",
              "minItems",
              MISSING_RECONCILIATION_REFS,
              "an empty reconciliation reference list reconciles nothing"),
          row(
              "Review",
              "approval_scope",
              ANY,
              INVALID_APPROVAL_SCOPE,
              "approval_scope is not an ApprovalScope object"),
          within(
              "ApprovalScope",
              INVALID_APPROVAL_SCOPE,
              "anything wrong inside an ApprovalScope, including its nested action and boundaries"),
          row(
              "EvidenceItemRef",
              "source_event_refs",
              "required",
              MISSING_EVIDENCE_EVENT_REFS,
              "evidence must point to the events it was captured from"),
          row(
              "EvidenceItemRef",
              "source_event_refs",
              "minItems",
              MISSING_EVIDENCE_EVENT_REFS,
              "an empty source event list points nowhere"),
          row(
              "OutcomeReport",
              "learning_record_refs",
              "required",
              OUTCOME_REPORT_WITHOUT_LEARNING_RECORD,
              "an OutcomeReport must reference the LearningRecords it reports on"),
          row(
              "OutcomeReport",
              "learning_record_refs",
              "minItems",
              OUTCOME_REPORT_WITHOUT_LEARNING_RECORD,
              "an empty LearningRecord list"),
          row(
              "Request",
              "policy_decision_id",
              "required",
              MISSING_POLICY_DECISION,
              "a Request must name the PolicyDecision that blocked the action"),
          row(
              ANY,
              "policy_id",
              "required",
              MISSING_POLICY,
              "a WorkSession or PolicyDecision must name its Policy"),
          row(
              ANY,
              "actor_id",
              "required",
              MISSING_ACTOR,
              "the record does not say which Actor it is attributed to"),
          row(
              ANY,
              ANY,
              "additionalProperties",
              UNKNOWN_STATE,
              "an unknown field: closed records carry only the fields the spec defines"),
          row(
              ANY,
              ANY,
              ANY,
              UNKNOWN_STATE,
              "the payload is not a record the protocol knows: wrong type, value outside its enum,"
                  + " const, pattern, length, range or format, missing field, duplicate item"));

  private ErrorIdTable() {}

  static List<Row> rows() {
    return ROWS;
  }

  static ProtocolErrorId lookup(Site site) {
    for (Row row : ROWS) {
      if (row.matches(site)) {
        return row.errorId();
      }
    }
    throw new IllegalStateException("the last row matches every site");
  }

  private static Row then(
      String schema, String field, String keyword, ProtocolErrorId id, String rationale) {
    return new Row(schema, false, field, keyword, When.CONDITIONAL, id, rationale);
  }

  private static Row row(
      String schema, String field, String keyword, ProtocolErrorId id, String rationale) {
    return new Row(schema, false, field, keyword, When.ALWAYS, id, rationale);
  }

  private static Row within(String schema, ProtocolErrorId id, String rationale) {
    return new Row(schema, true, ANY, ANY, When.ALWAYS, id, rationale);
  }
}
