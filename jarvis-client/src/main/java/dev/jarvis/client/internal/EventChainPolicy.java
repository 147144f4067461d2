package dev.jarvis.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.client.JarvisInvalidResponseException;
import dev.jarvis.client.JarvisRefusalException;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import dev.jarvis.core.canonical.CanonicalizationException;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.core.validation.PayloadValidator;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Per call, for {@code appendJarvisEvent} only: builds the event from the caller's draft on the
 * cursor the link above chose ({@code sequence}, {@code previous_hash}, {@code event_hash}; and
 * {@code id}, {@code work_session_id}, {@code actor_id}, {@code timestamp} where unset), checks it
 * against the spec, and on the way back checks that the host stored exactly that event as the next
 * link of the chain.
 */
public final class EventChainPolicy implements JarvisPolicy {

  private static final String APPEND = "appendJarvisEvent";

  /** Built on first use, once per process: a client is created without compiling the spec. */
  private final Supplier<PayloadValidator> validator;

  private final Clock clock;
  private final Supplier<String> ids;
  private final long maxBodyBytes;

  public EventChainPolicy(
      Supplier<PayloadValidator> validator, Clock clock, Supplier<String> ids, long maxBodyBytes) {
    this.maxBodyBytes = maxBodyBytes;
    this.validator = validator;
    this.clock = clock;
    this.ids = ids;
  }

  /** Whether this link builds the request's body. */
  static boolean builds(PipelineRequest request) {
    return request.operation().operationId().equals(APPEND);
  }

  @Override
  public String name() {
    return "event-chain";
  }

  @Override
  public CompletableFuture<PipelineResponse> send(PipelineRequest request, Next next) {
    if (!builds(request)) {
      return next.send(request);
    }
    // Chosen by the pipeline's cursor step above, typed: never parsed back out of the headers.
    ChainCursor sent = request.context().cursor().orElseThrow();
    ObjectNode draft = completed(request);
    ObjectNode event;
    try {
      event = EventChain.next(sent, draft);
    } catch (CanonicalizationException uncarried) {
      // Text the canonical form cannot carry (a lone surrogate): refused here, as the host would,
      // with every other violation of the draft.
      ValidationPolicy.refuseIfInvalid(validator.get(), request, draft);
      throw JarvisRefusalException.local(List.of(uncarried.toViolation("jarvis_event")));
    }
    ValidationPolicy.refuseIfInvalid(validator.get(), request, event);
    PipelineRequest built = request.withBody(event);
    ValidationPolicy.refuseIfTooLarge(built, maxBodyBytes);
    return ReadyStages.thenApply(next.send(built), answer -> storedAsSent(sent, event, answer));
  }

  private ObjectNode completed(PipelineRequest request) {
    ObjectNode draft = ((ObjectNode) request.body().orElseThrow()).deepCopy();
    if (!draft.has("id")) {
      draft.put("id", "event-" + ids.get());
    }
    if (!draft.has("work_session_id")) {
      draft.put("work_session_id", request.call().workSessionId().orElseThrow());
    }
    if (!draft.has("actor_id")) {
      draft.put("actor_id", request.actorId());
    }
    if (!draft.has("timestamp")) {
      draft.put("timestamp", RequestTimestamp.format(clock.instant()));
    }
    return draft;
  }

  /** The host must store the event we built, as we built it, as the next link. */
  private static PipelineResponse storedAsSent(
      ChainCursor sent, JsonNode event, PipelineResponse answer) {
    JsonNode stored = answer.json();
    Optional<ProtocolViolation> broken = EventChain.checkNext(sent, stored);
    if (broken.isPresent()) {
      throw new JarvisInvalidResponseException(
          answer.status(),
          broken.get().field(),
          "the host's event breaks the chain: " + broken.get().reason());
    }
    if (!stored.path("event_hash").equals(event.path("event_hash"))) {
      throw new JarvisInvalidResponseException(
          answer.status(), "/event_hash", "the host stored a different event than the one sent");
    }
    return answer;
  }
}
