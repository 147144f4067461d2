package dev.jarvis.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.JarvisRefusalException;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.model.ProtocolErrorId;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Per call: checks the body against the spec before anything is sent, so a refusal costs no request
 * (not even the re-read of a WorkSession). An event draft is left to {@link EventChainPolicy}: its
 * chain fields exist only once the cursor is known.
 */
public final class ValidationPolicy implements JarvisPolicy {

  /** Built on first use, once per process: a client is created without compiling the spec. */
  private final Supplier<PayloadValidator> validator;

  private final long maxBodyBytes;

  public ValidationPolicy(Supplier<PayloadValidator> validator, long maxBodyBytes) {
    this.validator = validator;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  public String name() {
    return "validation";
  }

  @Override
  public CompletableFuture<PipelineResponse> send(PipelineRequest request, Next next) {
    // An event draft over the limit is over it once built too (building only adds fields).
    refuseIfTooLarge(request, maxBodyBytes);
    if (!EventChainPolicy.builds(request)) {
      request.body().ifPresent(body -> refuseIfInvalid(validator.get(), request, body));
    }
    return next.send(request);
  }

  /**
   * Refuses locally a body larger than the host accepts: sent whole, it would cost the upload and
   * come back as a refusal that names no limit.
   */
  static void refuseIfTooLarge(PipelineRequest request, long maxBodyBytes) {
    int size = request.encodedBody().map(bytes -> bytes.length).orElse(0);
    if (size > maxBodyBytes) {
      String schema = request.operation().requestSchema().orElse("ProtocolError");
      throw JarvisRefusalException.local(
          List.of(
              new ProtocolViolation(
                  ProtocolErrorId.UNKNOWN_STATE,
                  schema.replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT),
                  "/",
                  "The body is "
                      + size
                      + " bytes, larger than the "
                      + maxBodyBytes
                      + "-byte limit of a request body; nothing was sent.",
                  "Send less in one record (the reference host and the host kit refuse bodies over "
                      + JarvisClientOptions.DEFAULT_MAX_REQUEST_BODY_BYTES
                      + " bytes): split the content over several records, or keep large"
                      + " material outside the protocol and cite it by reference. For a host"
                      + " known to accept more, raise JarvisClientOptions.maxRequestBodyBytes.")));
    }
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
