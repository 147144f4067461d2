package dev.jarvis.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisInvalidResponseException;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import dev.jarvis.core.signature.EventSignature;
import dev.jarvis.core.signature.SigningKey;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Per call, for {@code appendJarvisEvent} only, right after {@code event-chain} has set the event's
 * hash: signs the event with the key of its Actor, where the options give one, and on the way back
 * checks that the host stored the signature as sent. (A signature in the caller's draft never
 * reaches here: {@code EventChain.next} drops it, as it was made before the hash was known.)
 */
public final class EventSignaturePolicy implements JarvisPolicy {

  private final Function<String, Optional<SigningKey>> keys;
  private final long maxBodyBytes;

  /**
   * @param keys the signing key of an Actor, by its id
   * @param maxBodyBytes the request body limit, checked again once the signature is added
   */
  public EventSignaturePolicy(Function<String, Optional<SigningKey>> keys, long maxBodyBytes) {
    this.keys = keys;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  public String name() {
    return "event-signature";
  }

  @Override
  public CompletableFuture<PipelineResponse> send(PipelineRequest request, Next next) {
    if (!EventChainPolicy.builds(request)) {
      return next.send(request);
    }
    JsonNode event = request.body().orElseThrow();
    Optional<SigningKey> key = keys.apply(event.path("actor_id").asText());
    if (key.isEmpty()) {
      return next.send(request);
    }
    JsonNode signed = EventSignature.sign(event, key.get());
    PipelineRequest built = request.withBody(signed);
    ValidationPolicy.refuseIfTooLarge(built, maxBodyBytes);
    return ReadyStages.thenApply(next.send(built), answer -> storedAsSigned(signed, answer));
  }

  private static PipelineResponse storedAsSigned(JsonNode sent, PipelineResponse answer) {
    for (String field :
        new String[] {EventSignature.SIGNATURE_FIELD, EventSignature.KEY_REF_FIELD}) {
      if (!sent.path(field).equals(answer.json().path(field))) {
        throw new JarvisInvalidResponseException(
            answer.status(), "/" + field, "the host did not store the event's signature as sent");
      }
    }
    return answer;
  }
}
