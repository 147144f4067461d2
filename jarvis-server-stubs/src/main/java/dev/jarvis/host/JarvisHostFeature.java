package dev.jarvis.host;

import dev.jarvis.host.internal.JarvisJsonResolver;
import dev.jarvis.host.internal.OperationBinding;
import dev.jarvis.host.internal.ProtocolErrorMappers;
import dev.jarvis.host.internal.ProtocolResponseFilter;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Feature;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.core.Response;
import java.util.Objects;

/**
 * Plugs a {@link ProtocolHost} into any JAX-RS runtime. Register it beside resources that implement
 * the generated interfaces ({@code dev.jarvis.server.generated.api}) and answer every method with
 * {@link #respond(ContainerRequestContext)}. It adds:
 *
 * <ul>
 *   <li>a request filter on each resource method named like a spec operationId, which buffers the
 *       raw body (and resets the entity stream for binding), runs the request guard and aborts with
 *       a {@code ProtocolError} on refusal;
 *   <li>a response filter giving every response {@code Jarvis-Protocol-Version} and {@code
 *       Jarvis-Host-Capabilities};
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

  public JarvisHostFeature(ProtocolHost host) {
    this.host = Objects.requireNonNull(host, "host");
  }

  @Override
  public boolean configure(FeatureContext context) {
    context.register(new OperationBinding(host));
    context.register(new ProtocolResponseFilter(host));
    ProtocolErrorMappers.all(host).forEach(context::register);
    context.register(new JarvisJsonResolver());
    return true;
  }

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
    return toResponse(host.handle(call));
  }

  /** A stored answer as a JAX-RS response, byte for byte. */
  public static Response toResponse(StoredResponse stored) {
    Response.ResponseBuilder builder = Response.status(stored.status()).entity(stored.body());
    stored.headers().forEach(builder::header);
    return builder.build();
  }
}
