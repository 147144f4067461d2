package com.example.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.model.EvidenceManifest;
import dev.jarvis.testkit.JarvisHostStub;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ApprovalAgentTest {

  @RegisterExtension JarvisHostStub host = JarvisHostStub.create();

  @Test
  void theApprovalFlowRunsToAnExportedManifest() {
    try (JarvisClient client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(host.baseUri())
                .hostAuth("Bearer test")
                .actorId(JarvisHostStub.ADMIN_ACTOR_ID)
                .build())) {
      EvidenceManifest manifest =
          new ApprovalAgent(client, "actor-human-1", "actor-agent-1", "policy-bounded-001").run();

      assertEquals(
          "completed",
          host.workSession(manifest.getWorkSessionId()).orElseThrow().path("status").asText());
      assertEquals(List.of(), host.receivedViolations());
    }
  }
}
