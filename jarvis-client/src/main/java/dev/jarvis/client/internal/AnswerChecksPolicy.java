package dev.jarvis.client.internal;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisInvalidResponseException;
import dev.jarvis.client.JarvisRefusalException;
import dev.jarvis.client.JarvisTransportException;
import dev.jarvis.client.JarvisUnsupportedCapabilityException;
import dev.jarvis.client.RetryPolicy;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventPage;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.requestinbox.InboxPage;
import dev.jarvis.core.requestinbox.RequestInbox;
import dev.jarvis.core.requestread.RequestRead;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.model.ProtocolError;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.Request;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The innermost per-call link. On the way back it turns the last attempt's answer into the call's
 * outcome: the record, checked against the spec and bound from the body's one parse; or a {@link
 * dev.jarvis.client.JarvisFailure} — {@link JarvisTransportException} for a connection that failed
 * or retryable statuses to the end, {@link JarvisInvalidResponseException} for an off-spec answer,
 * {@link JarvisRefusalException} for a {@code ProtocolError}. The links above see only these.
 */
public final class AnswerChecksPolicy implements JarvisPolicy {

  /** Built on first use, once per process: a client is created without compiling the spec. */
  private final Supplier<PayloadValidator> validator;

  public AnswerChecksPolicy(Supplier<PayloadValidator> validator) {
    this.validator = validator;
  }

  @Override
  public String name() {
    return "answer-checks";
  }

  @Override
  public CompletableFuture<PipelineResponse> send(PipelineRequest request, Next next) {
    return ReadyStages.handle(
        next.send(request),
        (answer, failure) -> {
          if (failure != null) {
            throw unreachable(request, FailureCause.of(failure));
          }
          return checked(answer);
        });
  }

  private static RuntimeException unreachable(PipelineRequest request, Throwable failure) {
    // The retry link words its give-ups itself; this is for a pipeline a policy short-circuited.
    if (failure instanceof IOException e) {
      return new JarvisTransportException(
          GiveUp.where(request) + ": could not reach or read the host: " + GiveUp.rootCause(e), e);
    }
    return FailureCause.rethrowable(failure);
  }

  private PipelineResponse checked(PipelineResponse answer) {
    ProtocolOperation op = answer.request().operation();
    int status = answer.status();
    if (RetryPolicy.isRetryableStatus(status)) {
      throw new JarvisTransportException(
          op.operationId()
              + ": host answered "
              + status
              + " after "
              + answer.attempts()
              + " attempt(s)",
          answer.protocolTraceId());
    }
    Optional<String> capability = capabilityOf(op);
    if (capability.isPresent() && (status == 404 || status == 405)) {
      // A host of the spec alone has no such read: whatever it says, the capability is missing.
      throw new JarvisUnsupportedCapabilityException(
          capability.get(), status, answer.protocolTraceId());
    }
    Optional<String> version = answer.headers().firstValue(JarvisHeaders.PROTOCOL_VERSION);
    if (!version.equals(Optional.of(JarvisSpec.PROTOCOL_VERSION))) {
      throw new JarvisInvalidResponseException(
          status,
          JarvisHeaders.PROTOCOL_VERSION,
          "expected " + JarvisSpec.PROTOCOL_VERSION + ", got " + version.orElse("no header"),
          answer.protocolTraceId());
    }
    if (status / 100 == 2) {
      if (status != op.successStatus()) {
        throw new JarvisInvalidResponseException(
            status, "status", op.operationId() + " answers " + op.successStatus());
      }
      if (CallExchange.of(answer.request()).live().flatMap(LiveRead::body).isPresent()) {
        // An open event-stream: its frames are read, and checked, as they arrive.
        return answer;
      }
      if (op.equals(RequestInbox.OPERATION)) {
        return answer.withRecord(inboxPage(answer));
      }
      if (op.responseSchema().equals(EventLog.PAGE_SCHEMA)) {
        // The page is the SDK's, not a spec schema; its events stay trees, as hashed.
        return answer.withRecord(page(answer));
      }
      JsonNode record = conforming(answer, op.responseSchema());
      return answer.withRecord(bind(record, answer.request().call().responseType(), answer));
    }
    JsonNode error = conforming(answer, "ProtocolError");
    ProtocolError refusal = bind(error, ProtocolError.class, answer);
    if (capability.isPresent() && refusal.getErrorId() == ProtocolErrorId.UNSUPPORTED_CAPABILITY) {
      throw new JarvisUnsupportedCapabilityException(
          capability.get(), status, answer.protocolTraceId());
    }
    throw new JarvisRefusalException(refusal, GiveUp.call(answer.request()));
  }

  /** The SDK capability whose read {@code op} is; empty for the spec's own operations. */
  private static Optional<String> capabilityOf(ProtocolOperation op) {
    if (op.equals(EventLog.OPERATION)) {
      return Optional.of(EventLog.CAPABILITY);
    }
    if (op.equals(RequestInbox.OPERATION)) {
      return Optional.of(RequestInbox.CAPABILITY);
    }
    return RequestRead.isRead(op) ? Optional.of(RequestRead.CAPABILITY) : Optional.empty();
  }

  /**
   * The inbox page, if it is one and answers the query sent: no more Requests than asked for, each
   * of an asked status, all waiting on one human Worker, the cursor moving forward only, and an
   * empty page that says more follow refused (it would be asked for again, for ever).
   */
  private InboxPage inboxPage(PipelineResponse answer) {
    InboxPage page;
    try {
      page = InboxPage.of(answer.json(), validator.get());
    } catch (InboxPage.NotAPage off) {
      ProtocolViolation first = off.first();
      throw new JarvisInvalidResponseException(
          answer.status(), first.field(), first.reason(), answer.protocolTraceId());
    }
    RequestInbox.Query asked = RequestInbox.parse(answer.request().call().query().orElse(""));
    List<JsonNode> requests = page.requests();
    String off = null;
    String field = "/" + InboxPage.REQUESTS;
    if (requests.size() > asked.limit()) {
      off = "the page holds more Requests than the " + asked.limit() + " asked for";
    } else if (page.hasMore() && requests.isEmpty()) {
      off = "an empty page says more Requests follow";
      field = "/" + InboxPage.HAS_MORE;
    } else if (requests.isEmpty()
        ? page.nextAfter() != asked.after()
        : page.nextAfter() <= asked.after()) {
      off = "next_after does not move past the cursor asked after (" + asked.after() + ")";
      field = "/" + InboxPage.NEXT_AFTER;
    } else {
      String target = null;
      for (int i = 0; i < requests.size() && off == null; i++) {
        JsonNode request = requests.get(i);
        String status = request.path(Request.JSON_PROPERTY_STATUS).asText();
        String of = request.path(Request.JSON_PROPERTY_TARGET_HUMAN_WORKER_ID).asText();
        if (!asked.statuses().contains(status)) {
          off = "a Request of status " + status + ", which was not asked for";
          field = "/" + InboxPage.REQUESTS + "/" + i + "/" + Request.JSON_PROPERTY_STATUS;
        } else if (target != null && !target.equals(of)) {
          off = "Requests waiting on two human Workers in one inbox";
          field =
              "/"
                  + InboxPage.REQUESTS
                  + "/"
                  + i
                  + "/"
                  + Request.JSON_PROPERTY_TARGET_HUMAN_WORKER_ID;
        }
        target = of;
      }
    }
    if (off != null) {
      throw new JarvisInvalidResponseException(
          answer.status(), field, off, answer.protocolTraceId());
    }
    return page;
  }

  private EventPage page(PipelineResponse answer) {
    EventPage page;
    try {
      // Every event of the page is validated once, here.
      page = EventPage.of(answer.json(), validator.get());
    } catch (EventPage.NotAPage off) {
      ProtocolViolation first = off.violations().get(0);
      throw new JarvisInvalidResponseException(
          answer.status(), first.field(), first.reason(), answer.protocolTraceId());
    }
    // Judged here, for every reader of pages alike (eventPage, events, audit, auditAsync).
    EventWalk.shapeOf(page, asked(answer).limit())
        .ifPresent(off -> EventWalk.fail(off, answer.protocolTraceId()));
    return page;
  }

  /** The page the call asked for, from the query it sent. */
  private static EventLog.PageRequest asked(PipelineResponse answer) {
    String query = answer.request().call().query().orElse("");
    return EventLog.request(Map.of(EventLog.RAW_QUERY, query));
  }

  /** The body, if it is a valid instance of {@code schema}. */
  private JsonNode conforming(PipelineResponse answer, String schema) {
    JsonNode body = answer.json();
    List<ProtocolViolation> violations = validator.get().validate(schema, body);
    if (!violations.isEmpty()) {
      ProtocolViolation first = violations.get(0);
      throw new JarvisInvalidResponseException(
          answer.status(), first.field(), first.reason(), answer.protocolTraceId());
    }
    return body;
  }

  private static <T> T bind(JsonNode body, Class<T> type, PipelineResponse answer) {
    try {
      return AnswerMapping.mapper().treeToValue(body, type);
    } catch (JsonMappingException e) {
      throw new JarvisInvalidResponseException(
          answer.status(), pointer(e), e.getOriginalMessage(), answer.protocolTraceId());
    } catch (JacksonException e) {
      throw new JarvisInvalidResponseException(
          answer.status(), "/", e.getOriginalMessage(), answer.protocolTraceId());
    }
  }

  private static String pointer(JsonMappingException e) {
    StringBuilder pointer = new StringBuilder();
    for (JsonMappingException.Reference ref : e.getPath()) {
      pointer.append('/').append(ref.getFieldName() != null ? ref.getFieldName() : ref.getIndex());
    }
    return pointer.length() == 0 ? "/" : pointer.toString();
  }
}
