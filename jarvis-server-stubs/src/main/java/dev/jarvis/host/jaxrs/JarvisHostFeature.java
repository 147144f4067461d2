package dev.jarvis.host.jaxrs;

import dev.jarvis.core.headers.HeaderLookup;
import dev.jarvis.host.HeldAnswer;
import dev.jarvis.host.LiveStream;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.host.jaxrs.internal.JarvisJsonResolver;
import dev.jarvis.host.jaxrs.internal.OperationBinding;
import dev.jarvis.host.jaxrs.internal.ProtocolErrorMappers;
import dev.jarvis.host.jaxrs.internal.ProtocolResponseFilter;
import dev.jarvis.host.jaxrs.internal.RoutedOperations;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Feature;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Plugs a {@link ProtocolHost} into any JAX-RS runtime. Register it beside the ready-made resources
 * ({@code ProtocolResource.all()}) or your own classes that implement the generated interfaces
 * ({@code dev.jarvis.server.generated.api}) and answer every method with {@link
 * #respond(ContainerRequestContext)}. Everything it adds applies to protocol requests only (see
 * {@link #JarvisHostFeature(ProtocolHost)}):
 *
 * <ul>
 *   <li>a request filter on each resource method that implements a generated interface, which
 *       buffers the raw body (and resets the entity stream for binding), runs the request guard and
 *       aborts with a {@code ProtocolError} on refusal;
 *   <li>a response filter giving every response {@code Jarvis-Protocol-Version} and {@code
 *       Jarvis-Host-Capabilities}, which declares only what the application serves: {@code
 *       event-log} only where a resource routes its read ({@link EventLogApi}: {@code
 *       ProtocolResource.all()} does; beside classes of your own, register {@code
 *       EventLogResource}), and a request requiring a capability not served is refused {@code
 *       unsupported_capability};
 *   <li>exception mappers that answer unknown paths, wrong methods, unreadable JSON and host
 *       failures with a {@code ProtocolError};
 *   <li>the strict Jarvis {@code ObjectMapper} for entity binding.
 * </ul>
 */
public final class JarvisHostFeature implements Feature {

  /** Request property holding the checked {@link ProtocolCall}. */
  public static final String CALL_PROPERTY = "dev.jarvis.host.call";

  /** Request property holding the {@link ProtocolHost}. */
  public static final String HOST_PROPERTY = "dev.jarvis.host.host";

  private final ProtocolHost host;
  private final boolean ownsApplication;

  /**
   * The binding for an application Jarvis shares with other endpoints: it touches only requests
   * that match a generated interface's method or a path of the spec; everything else in the
   * application keeps its own errors, headers and JSON mapping.
   */
  public JarvisHostFeature(ProtocolHost host) {
    this(host, false);
  }

  private JarvisHostFeature(ProtocolHost host, boolean ownsApplication) {
    this.host = Objects.requireNonNull(host, "host");
    this.ownsApplication = ownsApplication;
  }

  /**
   * The binding for an application that is nothing but a Jarvis host (the reference host): every
   * request it cannot route, whatever its path, is answered with a {@code ProtocolError}.
   */
  public static JarvisHostFeature owningTheApplication(ProtocolHost host) {
    return new JarvisHostFeature(host, true);
  }

  @Override
  public boolean configure(FeatureContext context) {
    RoutedOperations routes = new RoutedOperations();
    context.register(new OperationBinding(host, routes));
    context.register(new ProtocolResponseFilter(host, ownsApplication, routes));
    ProtocolErrorMappers.all(host, ownsApplication).forEach(context::register);
    context.register(new JarvisJsonResolver());
    if (ownsApplication) {
      OWNING_PROPERTIES.forEach(context::property);
    }
    return true;
  }

  /**
   * Runtime properties an application that is nothing but a Jarvis host gets without asking, by
   * name so that the binding stays free of any runtime's classes (a runtime ignores names it does
   * not know). Under a servlet container Jersey answers an error status with {@code sendError},
   * which lets the container replace the body with its own error page (Spring Boot's {@code
   * /error}); setting the status instead keeps the {@code ProtocolError}. WADL would answer {@code
   * OPTIONS} and {@code /application.wadl} outside the protocol. Jersey's outbound length buffer
   * would hold an event stream's first frames (a shared application that declares {@code
   * event-stream} sets {@code jersey.config.server.contentLength.buffer=0} itself). A shared
   * application keeps its own settings: the binding changes nothing application-wide there.
   */
  private static final java.util.Map<String, Object> OWNING_PROPERTIES =
      java.util.Map.of(
          "jersey.config.server.response.setStatusOverSendError", Boolean.TRUE,
          "jersey.config.server.wadl.disableWadl", Boolean.TRUE,
          // Jersey holds the first 8 KiB of a body to learn its length, so an event stream's
          // frames would wait there; the binding's answers are byte arrays of known length anyway.
          "jersey.config.server.contentLength.buffer", 0);

  /**
   * The answer to the request being served, for a resource method: runs the checked call the
   * request filter left on the request.
   */
  public static Response respond(ContainerRequestContext request) {
    ProtocolHost host = (ProtocolHost) request.getProperty(HOST_PROPERTY);
    ProtocolCall call = (ProtocolCall) request.getProperty(CALL_PROPERTY);
    if (host == null || call == null) {
      throw new IllegalStateException("JarvisHostFeature is not registered for this resource");
    }
    // The runtime's MultivaluedMap looks names up case-insensitively.
    Function<String, Optional<String>> headers = HeaderLookup.ofLines(request.getHeaders()::get);
    if (!host.holds(call, headers)) {
      return toResponse(host.handleCall(call).response());
    }
    // A stream or a long poll holds the resource method's thread (the runtime's pool) while it
    // lasts: JAX-RS writes a body over time only through StreamingOutput's blocking stream, and a
    // generated resource method returns its Response (no @Suspended AsyncResponse to complete
    // later). The Undertow and servlet bindings hold no thread.
    HeldAnswer held = host.answerHeld(call, headers);
    if (held instanceof HeldAnswer.Answered answered) {
      return toResponse(answered.response());
    }
    if (held instanceof HeldAnswer.Polling polling) {
      return toResponse(polling.answer().toCompletableFuture().join());
    }
    LiveStream stream = ((HeldAnswer.Streaming) held).stream();
    StreamingOutput body =
        out ->
            stream.run(
                out,
                () -> {
                  try {
                    out.close();
                  } catch (java.io.IOException alreadyGone) {
                    // Closed either way.
                  }
                });
    Response.ResponseBuilder builder = Response.ok(body);
    stream.headers().forEach(builder::header);
    return builder.build();
  }

  /** A stored answer as a JAX-RS response, byte for byte. */
  public static Response toResponse(StoredResponse stored) {
    Response.ResponseBuilder builder = Response.status(stored.status()).entity(stored.body());
    stored.headers().forEach(builder::header);
    return builder.build();
  }
}
