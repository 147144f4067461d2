package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventPage;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.requestinbox.InboxPage;
import dev.jarvis.core.requestinbox.RequestInbox;
import dev.jarvis.core.requestread.RequestRead;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.host.ChainWrite;
import dev.jarvis.host.CommitResult;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.InboxEntry;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordWrite;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.host.StoredSession;
import dev.jarvis.model.Actor;
import dev.jarvis.model.EvidenceItemRef;
import dev.jarvis.model.EvidenceManifest;
import dev.jarvis.model.ExportProfile;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.WorkSession;
import dev.jarvis.model.Worker;
import dev.jarvis.model.WorkerType;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The reads, by members of the WorkSession only ({@link Membership}), each after the WorkSession's
 * due Request expiries are written. getWorkSession answers the stored snapshot; the {@code
 * event-log} read one page of the chain with the cursor headers of the snapshot it read; the {@code
 * request-read} reads one Request (as it is now, so an expiry that is due reads as written) or one
 * Review of the WorkSession, an id of no such record of it being {@code unknown_state}.
 * exportEvidenceManifest needs a terminal (or closed) WorkSession ({@code invalid_export_state});
 * the first export builds the manifest from the chain and records, checks it against the spec
 * ({@code invalid_export}; no Contribution is {@code invalid_evidence_export_state}, the schema
 * asks for one) and seals the WorkSession with it; every later export answers the same manifest.
 * {@code event_chain_root} is the hash of the last event, which covers the whole chain.
 */
final class Reads {

  private final HostConfig config;
  private final MemberTouch touch;
  private final DueRequestExpiry expiry;
  private final ResponseFactory responses;
  private final KeyedLocks<String> locks;

  Reads(
      HostConfig config,
      MemberTouch touch,
      DueRequestExpiry expiry,
      ResponseFactory responses,
      KeyedLocks<String> locks) {
    this.config = config;
    this.touch = touch;
    this.expiry = expiry;
    this.responses = responses;
    this.locks = locks;
  }

  StoredResponse apply(ProtocolCall call) {
    String id = call.workSessionId().orElseThrow();
    if (call.operation().equals(EventLog.OPERATION)) {
      return locks.with(id, () -> events(call, id));
    }
    if (call.operation().equals(RequestRead.GET_REQUEST)) {
      return locks.with(
          id, () -> record(call, id, RecordKind.REQUEST, RequestRead.REQUEST_ID, "request"));
    }
    if (call.operation().equals(RequestRead.GET_REVIEW)) {
      return locks.with(
          id, () -> record(call, id, RecordKind.REVIEW, RequestRead.REVIEW_ID, "review"));
    }
    return switch (call.operationId()) {
      case OperationIds.GET_WORK_SESSION ->
          locks.with(
              id,
              () ->
                  responses.success(
                      200,
                      ResponseFactory.bytes(touch.view(call, id).snapshot()),
                      Optional.empty()));
      case OperationIds.EXPORT_EVIDENCE_MANIFEST -> locks.with(id, () -> export(call, id));
      default -> throw new IllegalStateException("not a read: " + call.operationId());
    };
  }

  /**
   * One page of the caller's inbox ({@code request-inbox}): the Requests whose {@code
   * target_human_worker_id} is the calling human Actor's Worker. The host accepts a Request only
   * with the WorkSession's human Worker as target, and a WorkSession's human Worker never changes,
   * so these are exactly the Requests of the WorkSessions whose human the caller is (of which it is
   * a member); no other human's. Due expiries of the WorkSessions of the page are written first, as
   * every read writes its WorkSession's, and the page read again, so that a Request past its {@code
   * expires_at} never lists as {@code pending}. Takes no WorkSession lock of its own: each expiry
   * takes its WorkSession's.
   */
  StoredResponse inbox(ProtocolCall call) {
    String worker = inboxWorker(call);
    RequestInbox.Query query = call.query().inbox();
    List<InboxEntry> entries = inboxEntries(worker, query);
    Instant now = config.clock().instant();
    Set<String> due = new LinkedHashSet<>();
    for (InboxEntry entry : entries) {
      if (RequestLifecycle.isDue(entry.request(), now)) {
        entry.request().workSessionId().ifPresent(due::add);
      }
    }
    if (!due.isEmpty()) {
      due.forEach(expiry::expireDueAsHost);
      entries = inboxEntries(worker, query);
    }
    boolean more = entries.size() > query.limit();
    List<InboxEntry> shown = more ? entries.subList(0, query.limit()) : entries;
    long next = shown.isEmpty() ? query.after() : shown.get(shown.size() - 1).position();
    InboxPage page =
        new InboxPage(shown.stream().map(e -> e.request().body()).toList(), next, more);
    return responses.success(200, ResponseFactory.bytes(page.toJson()), Optional.empty());
  }

  /** One more than the page, to know whether more follow. */
  private List<InboxEntry> inboxEntries(String worker, RequestInbox.Query query) {
    return config
        .stores()
        .records()
        .inbox(worker, query.statuses(), query.after(), query.limit() + 1);
  }

  /**
   * The calling Actor's Worker. The guard admitted only a human Actor of a human Worker ({@link
   * ProtocolRules#admits}); a call built without the guard is held to the same here.
   */
  private String inboxWorker(ProtocolCall call) {
    if (call.actorRecord().isPresent()) {
      return call.actorRecord().get().path(Actor.JSON_PROPERTY_WORKER_ID).asText();
    }
    String human = WorkerType.HUMAN.getValue();
    return config
        .stores()
        .records()
        .actorWithWorker(call.actorId())
        .filter(a -> human.equals(a.actor().body().path(Actor.JSON_PROPERTY_TYPE).asText()))
        .filter(
            a ->
                a.worker()
                    .filter(w -> human.equals(w.body().path(Worker.JSON_PROPERTY_TYPE).asText()))
                    .isPresent())
        .map(a -> a.actor().body().path(Actor.JSON_PROPERTY_WORKER_ID).asText())
        .orElseThrow(
            () ->
                refuse(
                    ProtocolErrorId.UNAUTHORIZED_ACTOR,
                    "header",
                    JarvisHeaders.ACTOR_ID,
                    "listInboxRequests admits [HUMAN] Actors of a human Worker."));
  }

  /**
   * One page of the chain, as of the WorkSession read under its lock: events appended since (by
   * another host instance) are left to the next page, so the page and its cursor headers agree.
   */
  private StoredResponse events(ProtocolCall call, String id) {
    StoredSession session = touch.view(call, id);
    EventLog.PageRequest page = call.eventPage();
    ChainCursor cursor = session.cursor();
    List<JsonNode> events =
        config.stores().sessions().events(id, page.after(), page.limit()).stream()
            .filter(e -> e.path(JarvisEvent.JSON_PROPERTY_SEQUENCE).asLong() <= cursor.revision())
            .toList();
    long last =
        events.isEmpty()
            ? page.after()
            : events.get(events.size() - 1).path(JarvisEvent.JSON_PROPERTY_SEQUENCE).asLong();
    EventPage answer = new EventPage(id, events, last < cursor.revision());
    return responses.success(200, ResponseFactory.bytes(answer.toJson()), Optional.of(cursor));
  }

  /**
   * One record of the WorkSession, after its due expiries are written (a Request past its {@code
   * expires_at} reads {@code expired}, as the next touch of the WorkSession would make it).
   */
  private StoredResponse record(
      ProtocolCall call, String id, RecordKind kind, String parameter, String objectType) {
    touch.view(call, id);
    String recordId = call.pathParameters().getOrDefault(parameter, "");
    JsonNode body =
        config
            .stores()
            .records()
            .find(kind, id, recordId)
            .map(StoredRecord::body)
            .orElseThrow(
                () ->
                    refuse(
                        ProtocolErrorId.UNKNOWN_STATE,
                        objectType,
                        parameter,
                        "No " + objectType + " of this id in this WorkSession."));
    return responses.success(200, ResponseFactory.bytes(body), Optional.empty());
  }

  private StoredResponse export(ProtocolCall call, String id) {
    StoredSession session = touch.view(call, id);
    String manifestId = manifestId(id);
    if (session.sealed()) {
      JsonNode manifest =
          config
              .stores()
              .records()
              .find(RecordKind.EVIDENCE_MANIFEST, id, manifestId)
              .orElseThrow()
              .body();
      return responses.success(200, ResponseFactory.bytes(manifest), Optional.empty());
    }
    if (!WorkSessionLifecycle.exportable(session.status())) {
      throw refuse(
          ProtocolErrorId.INVALID_EXPORT_STATE,
          "work_session",
          "/status",
          "The WorkSession is " + session.status() + "; export needs a terminal state.");
    }
    List<StoredRecord> contributions =
        config.stores().records().inSession(RecordKind.CONTRIBUTION, id);
    if (contributions.isEmpty()) {
      throw refuse(
          ProtocolErrorId.INVALID_EVIDENCE_EXPORT_STATE,
          "evidence_manifest",
          "/contribution_refs",
          "The WorkSession records no Contribution; a manifest names at least one.",
          "Record at least one Contribution before the WorkSession ends: the EvidenceManifest"
              + " names one, and an ended WorkSession takes no new record.");
    }
    ObjectNode manifest = build(call.actorId(), session, manifestId);
    List<ProtocolViolation> violations =
        PayloadValidator.forSpec().validate("EvidenceManifest", manifest);
    if (!violations.isEmpty()) {
      ProtocolViolation first = violations.get(0);
      throw refuse(
          ProtocolErrorId.INVALID_EXPORT, "evidence_manifest", first.field(), first.reason());
    }
    StoredRecord record =
        new StoredRecord(
            RecordKind.EVIDENCE_MANIFEST,
            manifestId,
            Optional.of(id),
            manifest,
            Optional.of(session.cursor()));
    CommitResult sealed =
        config
            .stores()
            .commit(
                Mutation.of(
                    new ChainWrite.Seal(id, session.cursor()),
                    List.of(RecordWrite.create(record))));
    if (sealed.outcome() != CommitResult.Outcome.COMMITTED) {
      if (config.stores().sessions().find(id).filter(StoredSession::sealed).isPresent()) {
        // Another host instance exported first: answer its manifest, as a later export would.
        return export(call, id);
      }
      throw refuse(
          ProtocolErrorId.INVALID_EXPORT_STATE,
          "work_session",
          "/revision",
          "The WorkSession changed during export; export again.");
    }
    return responses.success(200, ResponseFactory.bytes(manifest), Optional.empty());
  }

  private ObjectNode build(String actorId, StoredSession session, String manifestId) {
    String id = session.id();
    Instant now = config.clock().instant();
    List<JsonNode> events = config.stores().sessions().events(id);
    JsonNodeFactory json = JsonNodeFactory.instance;
    ObjectNode manifest = json.objectNode();
    manifest.put(EvidenceManifest.JSON_PROPERTY_ID, manifestId);
    manifest.put(EvidenceManifest.JSON_PROPERTY_WORK_SESSION_ID, id);
    manifest.put(EvidenceManifest.JSON_PROPERTY_GENERATED_BY_ACTOR_ID, actorId);
    manifest.put(
        EvidenceManifest.JSON_PROPERTY_OBJECTIVE,
        session.snapshot().path(WorkSession.JSON_PROPERTY_OBJECTIVE).asText());
    manifest.put(EvidenceManifest.JSON_PROPERTY_EVENT_CHAIN_ROOT, session.cursor().lastEventHash());
    ObjectNode log =
        manifest.putArray(EvidenceManifest.JSON_PROPERTY_EVIDENCE_ITEM_REFS).addObject();
    log.put(EvidenceItemRef.JSON_PROPERTY_ID, id.length() <= 150 ? id + ".event-log" : "event-log");
    log.put(EvidenceItemRef.JSON_PROPERTY_WORK_SESSION_ID, id);
    ArrayNode sources = log.putArray(EvidenceItemRef.JSON_PROPERTY_SOURCE_EVENT_REFS);
    events.forEach(e -> sources.add(e.path(JarvisEvent.JSON_PROPERTY_ID).asText()));
    log.put(EvidenceItemRef.JSON_PROPERTY_CAPTURED_BY_ACTOR_ID, actorId);
    log.put(EvidenceItemRef.JSON_PROPERTY_EVIDENCE_TYPE, "event_log");
    log.put(
        EvidenceItemRef.JSON_PROPERTY_ARTIFACT_REF,
        session.snapshot().path(WorkSession.JSON_PROPERTY_EVENT_LOG_REF).asText());
    log.put(EvidenceItemRef.JSON_PROPERTY_CONTENT_HASH, session.cursor().lastEventHash());
    log.put(EvidenceItemRef.JSON_PROPERTY_TRUST_LABEL, "host_verified_chain");
    log.put(EvidenceItemRef.JSON_PROPERTY_REDACTION_STATE, "unredacted");
    log.put(EvidenceItemRef.JSON_PROPERTY_CAPTURED_AT, Timestamps.format(now));
    log.putArray(EvidenceItemRef.JSON_PROPERTY_LIMITATION_REFS);
    refs(manifest, "policy_decision_refs", RecordKind.POLICY_DECISION, id);
    refs(manifest, "request_refs", RecordKind.REQUEST, id);
    refs(manifest, "review_refs", RecordKind.REVIEW, id);
    refs(manifest, "takeover_refs", RecordKind.TAKEOVER, id);
    refs(manifest, "contribution_refs", RecordKind.CONTRIBUTION, id);
    ObjectNode profile = manifest.putObject(EvidenceManifest.JSON_PROPERTY_EXPORT_PROFILE);
    profile.put(ExportProfile.JSON_PROPERTY_PROFILE, "portable_evidence_manifest");
    profile.put(ExportProfile.JSON_PROPERTY_VERSION, JarvisSpec.PROTOCOL_VERSION);
    manifest.put(EvidenceManifest.JSON_PROPERTY_GENERATED_AT, Timestamps.format(now));
    return manifest;
  }

  private void refs(ObjectNode manifest, String field, RecordKind kind, String workSessionId) {
    ArrayNode array = manifest.putArray(field);
    config.stores().records().inSession(kind, workSessionId).forEach(r -> array.add(r.id()));
  }

  static String manifestId(String workSessionId) {
    return workSessionId.length() <= 140
        ? workSessionId + ".evidence-manifest"
        : "evidence-manifest." + HostEventIds.eventId(workSessionId, 0);
  }
}
