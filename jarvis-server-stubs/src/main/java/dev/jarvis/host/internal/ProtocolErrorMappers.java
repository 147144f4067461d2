package dev.jarvis.host.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.host.JarvisHostFeature;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.ProtocolRefusal;
import dev.jarvis.model.ProtocolErrorId;
import jakarta.annotation.Priority;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.List;

/**
 * Exception mappers that answer with a {@code ProtocolError} where a JAX-RS runtime would answer
 * with its own text. Reasons never echo exception messages, which can carry request data.
 */
public final class ProtocolErrorMappers {

  private ProtocolErrorMappers() {}

  /** All mappers, for registration. */
  public static List<Object> all(ProtocolHost host) {
    return List.of(
        new RefusalMapper(host), new WebErrors(host), new JsonErrors(host), new HostFailures(host));
  }

  /** A refusal thrown by a resource. */
  @Priority(1)
  static final class RefusalMapper implements ExceptionMapper<ProtocolRefusal> {
    private final ProtocolHost host;

    RefusalMapper(ProtocolHost host) {
      this.host = host;
    }

    @Override
    public Response toResponse(ProtocolRefusal refusal) {
      return JarvisHostFeature.toResponse(host.refusal(refusal));
    }
  }

  /** Unknown path (404), method (405), media type (415), unconvertible parameter (400). */
  @Priority(1)
  static final class WebErrors implements ExceptionMapper<WebApplicationException> {
    private final ProtocolHost host;

    WebErrors(ProtocolHost host) {
      this.host = host;
    }

    @Override
    public Response toResponse(WebApplicationException e) {
      int status = e.getResponse() == null ? 400 : e.getResponse().getStatus();
      String reason =
          switch (status) {
            case 404 -> "No protocol operation exists at this path.";
            case 405 -> "The protocol operation at this path takes another HTTP method.";
            case 406 -> "Protocol responses are application/json.";
            case 415 -> "Protocol request bodies are application/json.";
            default -> "The request could not be read as a protocol request.";
          };
      return JarvisHostFeature.toResponse(
          host.failure(
              status, ProtocolViolation.of(ProtocolErrorId.UNKNOWN_STATE, "request", "/", reason)));
    }
  }

  /** A body Jackson cannot bind, should one pass the raw check (beats Jersey's own mappers). */
  @Priority(1)
  static final class JsonErrors implements ExceptionMapper<JsonProcessingException> {
    private final ProtocolHost host;

    JsonErrors(ProtocolHost host) {
      this.host = host;
    }

    @Override
    public Response toResponse(JsonProcessingException e) {
      return JarvisHostFeature.toResponse(
          host.failure(
              400,
              ProtocolViolation.of(
                  ProtocolErrorId.UNKNOWN_STATE,
                  "request_body",
                  "/",
                  "The body is not a protocol record this host can read.")));
    }
  }

  /** A host defect: still a {@code ProtocolError}, with no internals. */
  @Priority(1)
  static final class HostFailures implements ExceptionMapper<RuntimeException> {
    private final ProtocolHost host;

    HostFailures(ProtocolHost host) {
      this.host = host;
    }

    @Override
    public Response toResponse(RuntimeException e) {
      if (e instanceof WebApplicationException web) {
        return new WebErrors(host).toResponse(web);
      }
      return JarvisHostFeature.toResponse(
          host.failure(
              500,
              ProtocolViolation.of(
                  ProtocolErrorId.UNKNOWN_STATE,
                  "host",
                  "/",
                  "The host failed to process the request.")));
    }
  }
}
