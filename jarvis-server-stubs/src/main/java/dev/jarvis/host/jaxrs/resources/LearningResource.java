package dev.jarvis.host.jaxrs.resources;

import dev.jarvis.model.LearningRecord;
import dev.jarvis.model.MemoryProposal;
import dev.jarvis.model.SkillProposal;
import dev.jarvis.server.generated.api.LearningApi;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/** LearningApi, answered by the host kit. */
@Path("")
public class LearningResource extends ProtocolResource implements LearningApi {

  @Override
  public Response createLearningRecord(
      String workSessionId,
      String jarvisProtocolVersion,
      String jarvisActorId,
      String jarvisIdempotencyKey,
      String jarvisRequestTimestamp,
      Long jarvisExpectedWorkSessionRevision,
      String jarvisPreviousEventHash,
      LearningRecord learningRecord) {
    return respond();
  }

  @Override
  public Response createMemoryProposal(
      String workSessionId,
      String jarvisProtocolVersion,
      String jarvisActorId,
      String jarvisIdempotencyKey,
      String jarvisRequestTimestamp,
      Long jarvisExpectedWorkSessionRevision,
      String jarvisPreviousEventHash,
      MemoryProposal memoryProposal) {
    return respond();
  }

  @Override
  public Response createSkillProposal(
      String workSessionId,
      String jarvisProtocolVersion,
      String jarvisActorId,
      String jarvisIdempotencyKey,
      String jarvisRequestTimestamp,
      Long jarvisExpectedWorkSessionRevision,
      String jarvisPreviousEventHash,
      SkillProposal skillProposal) {
    return respond();
  }
}
