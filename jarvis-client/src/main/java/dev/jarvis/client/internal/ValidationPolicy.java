package dev.jarvis.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisRefusalException;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.validation.PayloadValidator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Per call: checks the body against the spec before anything is sent, so a refusal costs no request
 * (not even the re-read of a WorkSession). An event draft is left to {@link EventChainPolicy}: its
 * chain fields exist only once the cursor is known.
 */
public final class ValidationPolicy implements JarvisPolicy {

  private final PayloadValidator validator;

  public ValidationPolicy(PayloadValidator validator) {
    this.validator = validator;
  }

  @Override
  public String name() {
    return "validation";
  }

  @Override
  public CompletableFuture<PipelineResponse> send(PipelineRequest request, Next next) {
    if (!EventChainPolicy.builds(request)) {
      request.body().ifPresent(body -> refuseIfInvalid(validator, request, body));
    }
    return next.send(request);
  }

  /** Refuses locally, with every violation, a body the spec does not allow. */
  static void refuseIfInvalid(PayloadValidator validator, PipelineRequest request, JsonNode body) {
    List<ProtocolViolation> violations =
        validator.validateRequestBody(request.operation().operationId(), body);
    if (!violations.isEmpty()) {
      throw JarvisRefusalException.local(violations);
    }
  }
}
