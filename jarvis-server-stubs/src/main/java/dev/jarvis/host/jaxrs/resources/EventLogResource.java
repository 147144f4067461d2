package dev.jarvis.host.jaxrs.resources;

import dev.jarvis.host.jaxrs.EventLogApi;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/**
 * The {@code event-log} read ({@link EventLogApi}) alone, for an application that serves the spec's
 * operations with resource classes of its own, built on the generated interfaces: one line, {@code
 * config.register(EventLogResource.class)}, routes the read, and the binding then declares {@code
 * event-log}. Not beside {@link ProtocolResource#all()}, whose {@code WorkSessionsResource} routes
 * it already (the runtime would find the read twice). Its class-level path is the generated
 * interfaces' own ({@code ""}), so the runtime merges it with the class that serves {@code
 * appendJarvisEvent} on the same path.
 */
@Path("")
public class EventLogResource extends ProtocolResource implements EventLogApi {

  @Override
  public Response listJarvisEvents(
      String workSessionId,
      String after,
      String limit,
      String jarvisProtocolVersion,
      String jarvisActorId,
      String jarvisRequiredCapabilities,
      String jarvisExtensions) {
    return respond();
  }
}
