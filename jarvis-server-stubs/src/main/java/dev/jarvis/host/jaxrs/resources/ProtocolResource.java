package dev.jarvis.host.jaxrs.resources;

import dev.jarvis.host.jaxrs.JarvisHostFeature;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import java.util.List;

/**
 * Base of the ready-made resources: each implements one generated interface and answers every
 * method by handing the request to the host kit; register {@link #all()} beside {@code
 * JarvisHostFeature} to serve all 15 operations. The typed parameters are bound by JAX-RS but not
 * used: the kit works from the raw body and headers its request filter checked, so what is hashed
 * and stored is what travelled.
 */
public abstract class ProtocolResource {

  /**
   * One resource class per generated interface. Each repeats its interface's class-level {@code
   * Path}, because Java does not inherit class annotations from interfaces.
   */
  private static final List<Class<? extends ProtocolResource>> ALL =
      List.of(
          WorkersResource.class,
          WorkSessionsResource.class,
          ControlPlaneResource.class,
          AttributionResource.class,
          LearningResource.class,
          EvidenceResource.class,
          FeedbackResource.class,
          RequestInboxResource.class);

  /**
   * The resource classes that together serve every operation of the spec, with the SDK's {@code
   * event-log} read (on {@code WorkSessionsResource}) and {@code request-inbox} read ({@link
   * RequestInboxResource}).
   */
  public static List<Class<? extends ProtocolResource>> all() {
    return ALL;
  }

  @Context private ContainerRequestContext context;

  /** The host kit's answer to the request being served. */
  protected Response respond() {
    return JarvisHostFeature.respond(context);
  }
}
