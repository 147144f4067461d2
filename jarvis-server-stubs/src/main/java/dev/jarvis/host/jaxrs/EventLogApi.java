package dev.jarvis.host.jaxrs;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

/**
 * The {@code event-log} capability's read, {@code GET /work-sessions/{work_session_id}/events}, in
 * the shape of the generated interfaces (which hold the spec's operations only): a resource that
 * implements it and answers with {@link JarvisHostFeature#respond} serves the read, as the
 * ready-made {@code WorkSessionsResource} does. Declare it on the class that serves {@code
 * appendJarvisEvent}: a JAX-RS runtime picks one resource class per path, so a second class on the
 * same path would answer the {@code POST} 405. The typed parameters are bound but not used: the
 * request filter hands the raw query to the host kit, which refuses a repeated {@code after} or
 * {@code limit}.
 */
public interface EventLogApi {

  /**
   * A page of the WorkSession's events ({@code dev.jarvis.core.eventlog.EventLog}); where the host
   * declares {@code event-stream}, also the live forms: Server-Sent Events for {@code Accept:
   * text/event-stream} and the long poll {@code ?wait=S} ({@code EventStream}).
   */
  @GET
  @Path("/work-sessions/{work_session_id}/events")
  @Produces({"application/json", "text/event-stream"})
  Response listJarvisEvents(
      @PathParam("work_session_id") String workSessionId,
      @QueryParam("after") String after,
      @QueryParam("limit") String limit,
      @HeaderParam("Jarvis-Protocol-Version") String jarvisProtocolVersion,
      @HeaderParam("Jarvis-Actor-Id") String jarvisActorId,
      @HeaderParam("Jarvis-Required-Capabilities") String jarvisRequiredCapabilities,
      @HeaderParam("Jarvis-Extensions") String jarvisExtensions);
}
