package dev.jarvis.core.error;

import static dev.jarvis.core.OperationClass.EXPORT_READ;
import static dev.jarvis.core.OperationClass.NON_WORKSESSION_MUTATION;
import static dev.jarvis.core.OperationClass.WORKSESSION_GENESIS_MUTATION;
import static dev.jarvis.core.OperationClass.WORKSESSION_SCOPED_MUTATION;
import static dev.jarvis.core.OperationClass.WORKSESSION_SCOPED_READ;

import dev.jarvis.core.OperationClass;
import dev.jarvis.model.ProtocolErrorId;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Default reason, remediation and raising operation classes for every {@code error_id} of the
 * spec's {@code ProtocolErrorId} enum, kept in one table: one list of rows, indexed by id.
 *
 * <p>An operation class <em>can raise</em> an id when a host may refuse a request of that class
 * with it, or when this SDK may refuse such a request, or the record it answers with, locally with
 * it. Where the spec ties an id to operations ({@code x-jarvis-path-body-id-match}, header
 * parameters, {@code x-jarvis-duplicate-rejection-id}, {@code x-jarvis-invariants}) the table
 * covers at least those operations' classes; the rest is judgement from the operations'
 * descriptions. In particular the read classes never raise an error about a mutation-only header,
 * because reads must not require them.
 *
 * <p>Texts are for humans, one sentence each; they never ask for, name or echo host-private data.
 */
public final class ProtocolErrorCatalog {

  /**
   * One row of the catalogue.
   *
   * @param errorId the spec's {@code error_id}
   * @param defaultReason what is wrong, when nothing more specific is known
   * @param remediation what a caller should do about it
   * @param operationClasses the operation classes that can raise it (unmodifiable)
   */
  public record Entry(
      ProtocolErrorId errorId,
      String defaultReason,
      String remediation,
      Set<OperationClass> operationClasses) {

    public Entry {
      Objects.requireNonNull(errorId, "errorId");
      Objects.requireNonNull(defaultReason, "defaultReason");
      Objects.requireNonNull(remediation, "remediation");
      if (operationClasses.isEmpty()) {
        throw new IllegalArgumentException(errorId.getValue() + " is raised by no operation class");
      }
      operationClasses = Collections.unmodifiableSet(EnumSet.copyOf(operationClasses));
    }
  }

  private static final Set<OperationClass> ALL = EnumSet.allOf(OperationClass.class);
  private static final Set<OperationClass> MUTATIONS =
      EnumSet.of(
          NON_WORKSESSION_MUTATION, WORKSESSION_GENESIS_MUTATION, WORKSESSION_SCOPED_MUTATION);

  /** Mutations that carry the WorkSession cursor (expected revision, previous event hash). */
  private static final Set<OperationClass> CURSOR_MUTATIONS =
      EnumSet.of(WORKSESSION_GENESIS_MUTATION, WORKSESSION_SCOPED_MUTATION);

  private static final Set<OperationClass> SCOPED = EnumSet.of(WORKSESSION_SCOPED_MUTATION);
  private static final Set<OperationClass> EXPORT = EnumSet.of(EXPORT_READ);

  /** Worker/Actor bodies carry namespaced extensions; reads carry {@code Jarvis-Extensions}. */
  private static final Set<OperationClass> EXTENSIONS =
      EnumSet.of(NON_WORKSESSION_MUTATION, WORKSESSION_SCOPED_READ, EXPORT_READ);

  private static final List<Entry> ENTRIES =
      List.of(
          row(
              ProtocolErrorId.INVALID_TRANSITION,
              "The requested change moves a record from its current state to a state the protocol"
                  + " does not allow next.",
              "Re-read the record's current state and request only a transition the protocol"
                  + " allows from it.",
              CURSOR_MUTATIONS),
          row(
              ProtocolErrorId.UNKNOWN_STATE,
              "The request refers to a record or state that the host does not know.",
              "Check the ids the field names against the host's current records (register or"
                  + " create the record first) and retry with ones that exist.",
              ALL),
          row(
              ProtocolErrorId.MISSING_PROTOCOL_VERSION,
              "The Jarvis-Protocol-Version header is absent or empty.",
              "Send Jarvis-Protocol-Version: v0.1 on every request.",
              ALL),
          row(
              ProtocolErrorId.UNSUPPORTED_PROTOCOL_VERSION,
              "The Jarvis-Protocol-Version header names a protocol version that is not spoken"
                  + " here.",
              "Send Jarvis-Protocol-Version: v0.1, the protocol version both sides speak.",
              ALL),
          row(
              ProtocolErrorId.MISSING_REQUEST_TIMESTAMP,
              "The Jarvis-Request-Timestamp header is absent, empty or not an RFC 3339 date-time.",
              "Send Jarvis-Request-Timestamp as an RFC 3339 UTC date-time with seconds, such as"
                  + " 2026-06-12T18:00:00Z, read from the clock when the request is sent.",
              MUTATIONS),
          row(
              ProtocolErrorId.STALE_REQUEST_TIMESTAMP,
              "The Jarvis-Request-Timestamp lies outside the accepted tolerance around the"
                  + " receiver's clock, in the past or in the future.",
              "Synchronise the sender's clock and stamp every attempt, retries included, with the"
                  + " time it is sent.",
              MUTATIONS),
          row(
              ProtocolErrorId.MISSING_EXPECTED_WORK_SESSION_REVISION,
              "The Jarvis-Expected-WorkSession-Revision header is absent, empty or not a"
                  + " non-negative integer.",
              "Send the revision of the WorkSession as last read, or 0 when creating a"
                  + " WorkSession.",
              CURSOR_MUTATIONS),
          row(
              ProtocolErrorId.MISSING_PREVIOUS_EVENT_HASH,
              "The Jarvis-Previous-Event-Hash header is absent or empty.",
              "Send the last_event_hash of the WorkSession as last read, or hash:protocol-genesis"
                  + " when creating a WorkSession.",
              CURSOR_MUTATIONS),
          row(
              ProtocolErrorId.STALE_WORK_SESSION_REVISION,
              "The expected WorkSession revision is not the WorkSession's current revision.",
              "Re-read the WorkSession, decide again on its current state, and retry with its"
                  + " current revision and last event hash.",
              CURSOR_MUTATIONS),
          row(
              ProtocolErrorId.MISSING_IDEMPOTENCY_KEY,
              "The Jarvis-Idempotency-Key header is absent or empty.",
              "Send a new unique Jarvis-Idempotency-Key for each logical mutation and reuse it"
                  + " only when retrying that same mutation.",
              MUTATIONS),
          row(
              ProtocolErrorId.MISSING_ACTOR,
              "The Jarvis-Actor-Id header is absent, empty or not a valid Jarvis id.",
              "Send the acting Actor's Jarvis id in Jarvis-Actor-Id: 1 to 160 letters, digits,"
                  + " '.', '_', ':' or '-', starting with a letter or digit.",
              ALL),
          row(
              ProtocolErrorId.PATH_BODY_ID_MISMATCH,
              "An id in the request path differs from the body field that must repeat it.",
              "Use the same id in the path and in the body field that must match it.",
              EnumSet.of(NON_WORKSESSION_MUTATION, WORKSESSION_SCOPED_MUTATION)),
          row(
              ProtocolErrorId.ACTOR_BODY_ID_MISMATCH,
              "The acting Actor named in the request body differs from the Jarvis-Actor-Id"
                  + " header.",
              "Name the same Actor in the body's actor field as in the Jarvis-Actor-Id header.",
              MUTATIONS),
          row(
              ProtocolErrorId.INVALID_EXTENSION_NAMESPACE,
              "An extension namespace is not lowercase dot-separated segments such as"
                  + " com.example.feature, or it names host-private data.",
              "Name every extension namespace as lowercase dot-separated segments such as"
                  + " com.example.feature that describe portable protocol data.",
              EXTENSIONS),
          row(
              ProtocolErrorId.EXTENSION_CORE_FIELD_OVERRIDE,
              "An extension replaces or redefines a core protocol field.",
              "Leave core fields to their protocol meaning and carry the extra value in a"
                  + " namespaced extension field.",
              EXTENSIONS),
          row(
              ProtocolErrorId.MISSING_POLICY,
              "The Policy that governs the WorkSession or decision is absent or unknown.",
              "Reference an existing Policy by policy_id before creating the WorkSession or"
                  + " recording the decision.",
              CURSOR_MUTATIONS),
          row(
              ProtocolErrorId.MISSING_POLICY_DECISION,
              "An AgentWorker action affected WorkSession state without a prior PolicyDecision.",
              "Record a PolicyDecision for the action before submitting the action as protocol"
                  + " state.",
              SCOPED),
          row(
              ProtocolErrorId.MISSING_OBJECTIVE,
              "The WorkSession or its EvidenceManifest has no objective.",
              "State the WorkSession's objective as non-empty text when creating the WorkSession.",
              EnumSet.of(WORKSESSION_GENESIS_MUTATION, EXPORT_READ)),
          row(
              ProtocolErrorId.POLICY_DENIED,
              "The governing PolicyDecision denies this AgentWorker action.",
              "Stop the denied action and create a Request if a HumanWorker should decide on it.",
              SCOPED),
          row(
              ProtocolErrorId.REQUEST_UNRESOLVED,
              "Work continues in a scope that an unresolved Request still blocks.",
              "Wait for a Review that resolves the Request before continuing the blocked scope,"
                  + " and meanwhile continue only unrelated safe work.",
              SCOPED),
          row(
              ProtocolErrorId.REVIEW_REQUIRED,
              "The action needs a HumanWorker Review before it can become accepted protocol"
                  + " state.",
              "Create a Request for review and continue only after a Review approves the action.",
              SCOPED),
          row(
              ProtocolErrorId.INVALID_REQUEST_TRANSITION,
              "The Request cannot move from its current status to the requested status.",
              "Re-read the Request and apply only a status change its lifecycle allows from the"
                  + " current status.",
              SCOPED),
          row(
              ProtocolErrorId.MISSING_REVIEW_RESOLUTION,
              "The Request is marked resolved without a Review that resolves it.",
              "Create the Request pending and let a HumanWorker Review resolve it: the Review's id"
                  + " is then written to resolved_by_review_id.",
              SCOPED),
          row(
              ProtocolErrorId.MISSING_TAKEOVER_RESOLUTION,
              "The Request or WorkSession leaves takeover without a Takeover record that resolves"
                  + " it.",
              "Record the Takeover and its outcome before marking the Request or WorkSession as"
                  + " resolved.",
              SCOPED),
          row(
              ProtocolErrorId.MISSING_SUPERSEDING_REQUEST,
              "A Request is marked superseded without naming the Request that supersedes it.",
              "Create the new Request pending and name the Request it replaces in"
                  + " duplicate_of_request_id; the replaced Request is then marked superseded.",
              SCOPED),
          row(
              ProtocolErrorId.INVALID_APPROVAL_SCOPE,
              "The ApprovalScope is incomplete or broader than the Request it approves.",
              "Bound the ApprovalScope to the Request's action, revision, Actor and WorkSession,"
                  + " with an expiry and a maximum number of uses.",
              SCOPED),
          row(
              ProtocolErrorId.APPROVAL_SCOPE_EXPIRED,
              "The action relies on an ApprovalScope that has expired or has no uses left.",
              "Create a new Request and obtain a fresh Review before repeating the action.",
              SCOPED),
          row(
              ProtocolErrorId.APPROVAL_SCOPE_MISMATCH,
              "The action differs from what the ApprovalScope approved, in action, Actor,"
                  + " WorkSession or scope.",
              "Perform exactly the approved action, or request a new approval for the changed"
                  + " action.",
              SCOPED),
          row(
              ProtocolErrorId.STALE_TAKEOVER_EPOCH,
              "The mutation was made under a Takeover state that has since changed.",
              "Re-read the WorkSession's Takeover state and continue only under the current one.",
              SCOPED),
          row(
              ProtocolErrorId.INVALID_EVENT_HASH,
              "An event_hash does not match the hash of the event's canonical form.",
              "Recompute event_hash from the event exactly as sent, with the canonicalization"
                  + " profile the event declares.",
              EnumSet.of(WORKSESSION_GENESIS_MUTATION, WORKSESSION_SCOPED_MUTATION, EXPORT_READ)),
          row(
              ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH,
              "The previous event hash does not link to the last accepted event of the"
                  + " WorkSession.",
              "Re-read the WorkSession and send its last_event_hash, or hash:protocol-genesis"
                  + " when creating the WorkSession.",
              EnumSet.of(WORKSESSION_GENESIS_MUTATION, WORKSESSION_SCOPED_MUTATION, EXPORT_READ)),
          row(
              ProtocolErrorId.DUPLICATE_IDEMPOTENCY_KEY_MISMATCH,
              "The idempotency key was already used by this Actor for a different request.",
              "Use a new idempotency key for a changed request and reuse a key only to retry an"
                  + " identical one.",
              MUTATIONS),
          row(
              ProtocolErrorId.REQUEST_LIVELOCK,
              "The same blocked action is being requested or retried again and again without a"
                  + " new decision.",
              "Stop repeating the Request and wait for a HumanWorker decision, or change the"
                  + " approach.",
              SCOPED),
          row(
              ProtocolErrorId.DUPLICATE_REQUEST_MISMATCH,
              "A Request with this id already exists with different content.",
              "Give a changed Request a new id, or resend the original Request unchanged.",
              SCOPED),
          row(
              ProtocolErrorId.MISSING_JARVIS_EVENT,
              "A referenced JarvisEvent is not in the WorkSession's event chain.",
              "Append the event first, then reference it by the id it was accepted with.",
              EnumSet.of(WORKSESSION_SCOPED_MUTATION, EXPORT_READ)),
          row(
              ProtocolErrorId.MISSING_BLOCKED_SCOPE_RESOLUTION_REFS,
              "Resolving a blocked scope does not reference the Request and Review that resolve"
                  + " it.",
              "Reference the Request and the Review that resolve the blocked scope.",
              SCOPED),
          row(
              ProtocolErrorId.MISSING_RECONCILIATION_REFS,
              "Leaving a Takeover does not reference the reconciliation of the changes made"
                  + " during it.",
              "Reference the reconciliation events or artifacts before resuming or closing the"
                  + " Takeover.",
              SCOPED),
          row(
              ProtocolErrorId.MUTATION_AFTER_CLOSED,
              "The WorkSession is closed and accepts no further mutation.",
              "Start a new WorkSession for further work, or submit an OutcomeReport for"
                  + " post-session feedback.",
              SCOPED),
          row(
              ProtocolErrorId.UNAUTHORIZED_ACTOR,
              "The Actor named in Jarvis-Actor-Id has no authority for this operation.",
              "Act as an Actor whose registered authority and WorkSession membership cover this"
                  + " operation, or have that authority granted to the Actor first.",
              ALL),
          row(
              ProtocolErrorId.INVALID_EXPORT,
              "The EvidenceManifest is incomplete or inconsistent with the WorkSession record.",
              "Complete the missing evidence, contributions or references in the WorkSession and"
                  + " request the export again.",
              EXPORT),
          row(
              ProtocolErrorId.INVALID_EXPORT_STATE,
              "The WorkSession is not in a terminal state, so it cannot be exported.",
              "Bring the WorkSession to completed, failed, cancelled or closed before requesting"
                  + " the export.",
              EXPORT),
          row(
              ProtocolErrorId.INVALID_EVIDENCE_EXPORT_STATE,
              "Evidence in the export is not yet in an exportable state, such as unredacted or"
                  + " still changing.",
              "Finish capture, redaction and review of every evidence item before requesting the"
                  + " export.",
              EXPORT),
          row(
              ProtocolErrorId.MISSING_CONTRIBUTION_ACTOR,
              "A Contribution does not name the Actor that represented a contributor.",
              "Give every contributor reference the Actor id that acted for its Worker.",
              SCOPED),
          row(
              ProtocolErrorId.INVALID_CONTRIBUTOR_REFS,
              "The contributor references do not fit the contributor_type or name unknown Workers"
                  + " or Actors.",
              "Reference registered Workers with their own Actors and roles consistent with the"
                  + " contributor_type.",
              SCOPED),
          row(
              ProtocolErrorId.SHARED_CONTRIBUTION_WITHOUT_INDIVIDUAL_REFS,
              "A shared Contribution does not list at least two individual contributors.",
              "List each individual contributor of a shared Contribution with their own Worker"
                  + " and Actor.",
              SCOPED),
          row(
              ProtocolErrorId.DUPLICATE_CONTRIBUTOR_REF,
              "The same Worker and Actor pair appears more than once in contributor_refs.",
              "List each Worker and Actor pair only once in contributor_refs.",
              SCOPED),
          row(
              ProtocolErrorId.EVIDENCE_AFTER_THE_FACT,
              "Evidence is claimed after the fact instead of being captured while the supported"
                  + " work happened.",
              "Capture evidence during the WorkSession and reference the events that produced it.",
              EnumSet.of(WORKSESSION_SCOPED_MUTATION, EXPORT_READ)),
          row(
              ProtocolErrorId.MISSING_EVIDENCE_EVENT_REFS,
              "An evidence item does not reference the WorkSession events that produced it.",
              "Reference at least one source event of the same WorkSession from every evidence"
                  + " item.",
              EXPORT),
          row(
              ProtocolErrorId.DUPLICATE_EVIDENCE_ITEM_REF,
              "The same evidence item id appears more than once in the EvidenceManifest.",
              "List each evidence item only once in evidence_item_refs.",
              EXPORT),
          row(
              ProtocolErrorId.FORBIDDEN_EXPORT_FIELD,
              "The export contains a field that the portable export profile forbids.",
              "Leave host-only fields out of the export and keep them in the host's own records.",
              EXPORT),
          row(
              ProtocolErrorId.SILENT_MEMORY_MUTATION,
              "Memory would change without a reviewed MemoryProposal.",
              "Submit the change as a MemoryProposal and apply it only after a Review accepts it.",
              SCOPED),
          row(
              ProtocolErrorId.SILENT_SKILL_ACTIVATION,
              "A skill would become active without a reviewed SkillProposal.",
              "Submit the skill as a SkillProposal and activate it only after a Review accepts"
                  + " it.",
              SCOPED),
          row(
              ProtocolErrorId.MODEL_SELF_CONFIRMED_MEMORY,
              "Model-derived memory is confirmed by the model or AgentWorker that proposed it.",
              "Have a HumanWorker review model-derived memory and reference that Review when"
                  + " accepting it.",
              SCOPED),
          row(
              ProtocolErrorId.TOOL_SELF_CONFIRMED_MEMORY,
              "Tool-derived memory is confirmed by the tool that produced it.",
              "Have a HumanWorker review tool-derived memory and reference that Review when"
                  + " accepting it.",
              SCOPED),
          row(
              ProtocolErrorId.SKILL_EXPANDS_TOOL_ACCESS_WITHOUT_POLICY_REVIEW,
              "The SkillProposal needs tools beyond the Policy's grants without a policy review.",
              "Have the extra tool access reviewed into the Policy before accepting the"
                  + " SkillProposal, or drop the extra tools.",
              SCOPED),
          row(
              ProtocolErrorId.SEALED_WORK_SESSION_MUTATION,
              "The request would change a sealed WorkSession.",
              "Leave the sealed WorkSession unchanged and record follow-up feedback as an"
                  + " OutcomeReport.",
              EnumSet.of(NON_WORKSESSION_MUTATION, WORKSESSION_SCOPED_MUTATION)),
          row(
              ProtocolErrorId.SEALED_EVIDENCE_MUTATION,
              "The request would change a sealed EvidenceManifest.",
              "Leave the exported EvidenceManifest unchanged and record follow-up feedback as an"
                  + " OutcomeReport.",
              EnumSet.of(NON_WORKSESSION_MUTATION, WORKSESSION_SCOPED_MUTATION)),
          row(
              ProtocolErrorId.OUTCOME_REPORT_WITHOUT_LEARNING_RECORD,
              "The OutcomeReport does not reference a governed LearningRecord.",
              "Reference at least one existing LearningRecord of the WorkSession in"
                  + " learning_record_refs.",
              EnumSet.of(NON_WORKSESSION_MUTATION)),
          row(
              ProtocolErrorId.OUTCOME_REPORT_REQUIRES_TERMINAL_SOURCE,
              "The OutcomeReport refers to a WorkSession that has not ended and been exported.",
              "Submit the OutcomeReport only after its WorkSession has reached a terminal state"
                  + " and been exported.",
              EnumSet.of(NON_WORKSESSION_MUTATION)),
          row(
              ProtocolErrorId.UNSUPPORTED_CAPABILITY,
              "A required capability is not supported by the host, or the capability list is"
                  + " malformed.",
              "Require only capabilities the host lists in Jarvis-Host-Capabilities, as a"
                  + " comma-separated list of names.",
              ALL),
          row(
              ProtocolErrorId.FORBIDDEN_HOST_PRIVATE_FIELD,
              "A protocol record carries a field reserved for host-private data.",
              "Remove the host-private field and keep that data in the host's own systems.",
              ALL));

  /**
   * The remediation of a failed HostAuth (HTTP 401, {@code unauthorized_actor} at {@code
   * Authorization}): the credential is at fault, not the Actor's authority, so the catalogue's
   * {@code unauthorized_actor} text would send the user the wrong way.
   */
  public static final String HOST_AUTH_REMEDIATION =
      "Send the credential this host accepts in the Authorization header (for a bearer token:"
          + " Authorization: Bearer TOKEN); check that the token is the one the host was given and"
          + " has not been replaced.";

  /** The catalogue, one entry per {@code error_id}. */
  private static final Map<ProtocolErrorId, Entry> TABLE = index(ENTRIES);

  private ProtocolErrorCatalog() {}

  /** The catalogue's entry for an {@code error_id}. */
  public static Entry entry(ProtocolErrorId errorId) {
    return TABLE.get(Objects.requireNonNull(errorId, "errorId"));
  }

  /** All entries, in the spec's enum order. */
  public static List<Entry> entries() {
    return List.copyOf(TABLE.values());
  }

  /** What is wrong, when the refusing party gives nothing more specific. */
  public static String defaultReason(ProtocolErrorId errorId) {
    return entry(errorId).defaultReason();
  }

  /** What a caller should do about an error with this id. */
  public static String remediation(ProtocolErrorId errorId) {
    return entry(errorId).remediation();
  }

  /** The operation classes that can raise this id (unmodifiable). */
  public static Set<OperationClass> operationClasses(ProtocolErrorId errorId) {
    return entry(errorId).operationClasses();
  }

  /** The ids an operation of this class can raise (unmodifiable). */
  public static Set<ProtocolErrorId> raisableBy(OperationClass operationClass) {
    Objects.requireNonNull(operationClass, "operationClass");
    EnumSet<ProtocolErrorId> ids = EnumSet.noneOf(ProtocolErrorId.class);
    for (Entry e : TABLE.values()) {
      if (e.operationClasses().contains(operationClass)) {
        ids.add(e.errorId());
      }
    }
    return Collections.unmodifiableSet(ids);
  }

  private static Entry row(
      ProtocolErrorId errorId,
      String defaultReason,
      String remediation,
      Set<OperationClass> operationClasses) {
    return new Entry(errorId, defaultReason, remediation, operationClasses);
  }

  private static Map<ProtocolErrorId, Entry> index(List<Entry> entries) {
    EnumMap<ProtocolErrorId, Entry> table = new EnumMap<>(ProtocolErrorId.class);
    for (Entry e : entries) {
      if (table.put(e.errorId(), e) != null) {
        throw new IllegalStateException("two catalogue entries for " + e.errorId().getValue());
      }
    }
    EnumSet<ProtocolErrorId> missing = EnumSet.complementOf(EnumSet.copyOf(table.keySet()));
    if (!missing.isEmpty()) {
      throw new IllegalStateException("no catalogue entry for " + missing);
    }
    return Collections.unmodifiableMap(table);
  }
}
