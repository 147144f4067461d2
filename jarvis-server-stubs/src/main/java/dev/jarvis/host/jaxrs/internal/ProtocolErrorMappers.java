package dev.jarvis.host.jaxrs.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.ProtocolRefusal;
import dev.jarvis.host.jaxrs.JarvisHostFeature;
import dev.jarvis.model.ProtocolErrorId;
import jakarta.annotation.Priority;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.List;

/**
 * Exception mappers that answer protocol requests with a {@code ProtocolError} where a JAX-RS
 * runtime would answer with its own text. Every other request of the application gets what it would
 * get without the binding: a {@code WebApplicationException}'s own response. There is no mapper for
 * {@code RuntimeException}: it would take over the application's own failures; the host kit answers
 * its own failures itself ({@code ProtocolHost.hostFailure}). Reasons never echo exception
 * messages, which can carry request data.
 */
public final class ProtocolErrorMappers {

  private ProtocolErrorMappers() {}

  /** All mappers, for registration. */
  public static List<Object> all(ProtocolHost host, boolean ownsApplication) {
    List<Object> mappers =
        new java.util.ArrayList<>(
            List.of(
                new RefusalMapper(host),
                new WebErrors(host, ownsApplication),
                new JsonErrors(host, ownsApplication)));
    if (ownsApplication) {
      // Only where every request is the protocol's: in a shared application these would also take
      // the application's own JSON errors from the mappers it chose (Jersey's, for instance).
      mappers.add(new JsonParseErrors(host, true));
      mappers.add(new JsonMappingErrors(host, true));
    }
    return List.copyOf(mappers);
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

  /**
   * What the scoped mappers share: whether the request being answered is the protocol's (see {@link
   * JarvisScope}); an application's own requests keep their own answers.
   */
  abstract static class ScopedMapper {
    final ProtocolHost host;
    private final boolean ownsApplication;
    @Context private UriInfo uri;

    ScopedMapper(ProtocolHost host, boolean ownsApplication) {
      this.host = host;
      this.ownsApplication = ownsApplication;
    }

    final boolean ours() {
      return ownsApplication || uri == null || JarvisScope.covers(uri);
    }
  }

  /** Unknown path (404), method (405), media type (415), unconvertible parameter (400). */
  @Priority(1)
  static final class WebErrors extends ScopedMapper
      implements ExceptionMapper<WebApplicationException> {

    WebErrors(ProtocolHost host, boolean ownsApplication) {
      super(host, ownsApplication);
    }

    @Override
    public Response toResponse(WebApplicationException e) {
      if (!ours()) {
        return e.getResponse();
      }
      int status = e.getResponse() == null ? 400 : e.getResponse().getStatus();
      String reason =
          switch (status) {
            case 404 -> "No protocol operation exists at this path.";
            case 405 -> "The protocol operation at this path takes another HTTP method.";
            case 406 -> "Protocol responses are application/json.";
            case 415 -> "Protocol request bodies are application/json.";
            default -> "The request could not be read as a protocol request.";
          };
      // outsideTheProtocol: the remediation of a request that reached no operation, not the
      // catalogue's text about unknown records.
      return JarvisHostFeature.toResponse(host.outsideTheProtocol(status, reason));
    }
  }

  /** A body Jackson cannot bind, should one pass the raw check. */
  @Priority(1)
  static final class JsonErrors extends ScopedMapper
      implements ExceptionMapper<JsonProcessingException> {

    JsonErrors(ProtocolHost host, boolean ownsApplication) {
      super(host, ownsApplication);
    }

    @Override
    public Response toResponse(JsonProcessingException e) {
      return unreadable(this);
    }
  }

  /**
   * The same for the exact type of Jersey's own {@code JsonParseExceptionMapper}: a runtime picks
   * the mapper nearest the exception's type, so only a mapper of the same type with a higher
   * priority beats it, and the host team need not turn Jersey's mappers off.
   */
  @Priority(1)
  static final class JsonParseErrors extends ScopedMapper
      implements ExceptionMapper<com.fasterxml.jackson.core.JsonParseException> {

    JsonParseErrors(ProtocolHost host, boolean ownsApplication) {
      super(host, ownsApplication);
    }

    @Override
    public Response toResponse(com.fasterxml.jackson.core.JsonParseException e) {
      return unreadable(this);
    }
  }

  /** As {@link JsonParseErrors}, for Jersey's {@code JsonMappingExceptionMapper}. */
  @Priority(1)
  static final class JsonMappingErrors extends ScopedMapper
      implements ExceptionMapper<com.fasterxml.jackson.databind.JsonMappingException> {

    JsonMappingErrors(ProtocolHost host, boolean ownsApplication) {
      super(host, ownsApplication);
    }

    @Override
    public Response toResponse(com.fasterxml.jackson.databind.JsonMappingException e) {
      return unreadable(this);
    }
  }

  /**
   * A protocol request's unreadable body as a {@code ProtocolError}; another request's as the bare
   * 400 a runtime without the binding would give.
   */
  private static Response unreadable(ScopedMapper mapper) {
    if (!mapper.ours()) {
      return Response.status(400).build();
    }
    return JarvisHostFeature.toResponse(
        mapper.host.failure(
            400,
            ProtocolViolation.of(
                ProtocolErrorId.UNKNOWN_STATE,
                "request_body",
                "/",
                "The body is not a protocol record this host can read.")));
  }
}
