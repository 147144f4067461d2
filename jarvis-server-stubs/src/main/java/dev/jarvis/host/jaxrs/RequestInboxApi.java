package dev.jarvis.host.jaxrs;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

/**
 * The {@code request-inbox} capability's read, {@code GET /inbox/requests}, in the shape of the
 * generated interfaces (which hold the spec's operations only): a resource that implements it and
 * answers with {@link JarvisHostFeature#respond} serves the read, as the ready-made {@code
 * RequestInboxResource} does; where none does, the binding does not declare {@code request-inbox}.
 * The typed parameters are bound but not used: the request filter hands the raw query to the host
 * kit, which refuses a repeated or malformed parameter as the {@code event-log} read's. Its
 * class-level path is the generated interfaces' own ({@code ""}), which a resource repeats.
 */
@Path("")
public interface RequestInboxApi {

  /**
   * A page of the calling human's inbox ({@code dev.jarvis.core.requestinbox.RequestInbox}); with
   * {@code wait} a long poll, which holds the resource method's thread while it waits.
   */
  @GET
  @Path("/inbox/requests")
  @Produces({"application/json"})
  Response listInboxRequests(
      @QueryParam("status") String status,
      @QueryParam("after") String after,
      @QueryParam("limit") String limit,
      @QueryParam("wait") String waitSeconds,
      @HeaderParam("Jarvis-Protocol-Version") String jarvisProtocolVersion,
      @HeaderParam("Jarvis-Actor-Id") String jarvisActorId,
      @HeaderParam("Jarvis-Required-Capabilities") String jarvisRequiredCapabilities,
      @HeaderParam("Jarvis-Extensions") String jarvisExtensions);
}
