package dev.jarvis.host.reference;

import dev.jarvis.host.JarvisHostFeature;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import java.util.List;

/**
 * Base of the reference host's resources: each implements one generated interface and answers every
 * method by handing the request to the host kit. The typed parameters are bound by JAX-RS but not
 * used: the kit works from the raw body and headers its request filter checked, so what is hashed
 * and stored is what travelled.
 */
public abstract class ProtocolResource {

  /** One resource class per generated interface (the interfaces carry the paths). */
  static final List<Class<? extends ProtocolResource>> ALL =
      List.of(
          WorkersResource.class,
          WorkSessionsResource.class,
          ControlPlaneResource.class,
          AttributionResource.class,
          LearningResource.class,
          EvidenceResource.class,
          FeedbackResource.class);

  @Context private ContainerRequestContext context;

  /** The host kit's answer to the request being served. */
  protected Response respond() {
    return JarvisHostFeature.respond(context);
  }
}
