package dev.jarvis.host.jaxrs.resources;

import dev.jarvis.server.generated.api.EvidenceApi;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/** EvidenceApi, answered by the host kit. */
@Path("/work-sessions/{work_session_id}/export")
public class EvidenceResource extends ProtocolResource implements EvidenceApi {

  @Override
  public Response exportEvidenceManifest(
      String workSessionId,
      String jarvisProtocolVersion,
      String jarvisActorId,
      String jarvisRequiredCapabilities,
      String jarvisExtensions) {
    return respond();
  }
}
