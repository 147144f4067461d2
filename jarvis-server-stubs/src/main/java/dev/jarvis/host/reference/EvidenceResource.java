package dev.jarvis.host.reference;

import dev.jarvis.server.generated.api.EvidenceApi;
import jakarta.ws.rs.core.Response;

/** EvidenceApi, answered by the host kit. */
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
