package dev.jarvis.host;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.host.internal.ActorAuthority;
import dev.jarvis.host.internal.OperationDispatch;
import dev.jarvis.host.internal.RequestGuard;
import dev.jarvis.host.internal.ResponseFactory;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The host kit's entry point, independent of any HTTP runtime: {@link #check} a request against the
 * request guard, then {@link #handle} it. {@link JarvisHostFeature} wires both into JAX-RS.
 */
public final class ProtocolHost {

  /** Response header: the WorkSession revision after an accepted WorkSession mutation. */
  public static final String WORK_SESSION_REVISION = ResponseFactory.WORK_SESSION_REVISION;

  /** Response header: the last event hash after an accepted WorkSession mutation. */
  public static final String LAST_EVENT_HASH = ResponseFactory.LAST_EVENT_HASH;

  private final HostConfig config;
  private final RequestGuard guard;
  private final ResponseFactory responses;
  private final OperationDispatch dispatch;

  public ProtocolHost(HostConfig config) {
    this.config = Objects.requireNonNull(config, "config");
    ActorAuthority authority = new ActorAuthority(config, config.stores().records());
    this.guard = new RequestGuard(config, authority);
    this.responses = new ResponseFactory(config);
    this.dispatch = new OperationDispatch(config, authority, responses);
  }

  /** The configuration. */
  public HostConfig config() {
    return config;
  }

  /**
   * Seeds a Policy. The spec has no operation for Policies; a host holds them as configuration.
   *
   * @throws IllegalArgumentException if it is not a valid {@code Policy}
   */
  public void seedPolicy(JsonNode policy) {
    List<ProtocolViolation> violations = PayloadValidator.forSpec().validate("Policy", policy);
    if (!violations.isEmpty()) {
      throw new IllegalArgumentException("not a valid Policy: " + violations.get(0));
    }
    config
        .stores()
        .records()
        .put(StoredRecord.global(RecordKind.POLICY, policy.path("id").asText(), policy));
  }

  /**
   * Runs the request guard.
   *
   * @param headers case-insensitive header lookup
   * @param rawBody the body bytes as they travelled, empty for reads
   * @throws ProtocolRefusal on the first broken rule
   */
  public ProtocolCall check(
      ProtocolOperation operation,
      Function<String, Optional<String>> headers,
      Map<String, String> pathParameters,
      byte[] rawBody) {
    return guard.check(operation, headers, pathParameters, rawBody);
  }

  /** Applies a checked call: its answer, a success or a refusal, exactly as to be sent. */
  public StoredResponse handle(ProtocolCall call) {
    try {
      return dispatch.apply(call);
    } catch (ProtocolRefusal refusal) {
      return refusal(refusal);
    }
  }

  /** The answer to a refusal: its status and a {@code ProtocolError} with a fresh trace id. */
  public StoredResponse refusal(ProtocolRefusal refusal) {
    return responses.error(refusal.httpStatus(), refusal.violation());
  }

  /** The answer to a failure outside the protocol (unknown path, unsupported method). */
  public StoredResponse failure(int status, ProtocolViolation violation) {
    return responses.error(status, violation);
  }

  /** {@code Jarvis-Protocol-Version} and {@code Jarvis-Host-Capabilities}, for every response. */
  public Map<String, String> protocolHeaders() {
    return responses.protocolHeaders();
  }
}
