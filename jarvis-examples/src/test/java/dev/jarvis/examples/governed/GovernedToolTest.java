package dev.jarvis.examples.governed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.governed.ActionReport;
import dev.jarvis.client.governed.GovernedOptions;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.model.Policy;
import dev.jarvis.model.RiskClass;
import dev.jarvis.model.WorkSession;
import dev.jarvis.samples.SampleRecords;
import dev.jarvis.testkit.JarvisHostStub;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An agent's tools written with governed actions (docs/governed-actions.md): each tool is its
 * domain logic and one {@code governed(...)} call; the decision, the record and what the model is
 * told come from the SDK. The sample Policy allows summaries and denies deleting a repository.
 */
class GovernedToolTest {

  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-06-12T18:00:00Z"), ZoneOffset.UTC);
  static final String NOW = "2026-06-12T18:00:00Z";

  @RegisterExtension JarvisHostStub host = JarvisHostStub.builder().clock(CLOCK).build();

  JarvisClient agent;
  GovernedOptions options;
  final List<String> deleted = new ArrayList<>();

  @BeforeEach
  void aWorkSessionAndTheAgentsOptions() throws Exception {
    host.givenWorker(SampleRecords.worker("worker-human-1", "human"))
        .givenWorker(SampleRecords.worker("worker-agent-1", "agent"))
        .givenActor(SampleRecords.actor("actor-human-1", "worker-human-1", "human", NOW))
        .givenActor(SampleRecords.actor("actor-agent-1", "worker-agent-1", "agent", NOW));
    JarvisClient client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(host.baseUri())
                .hostAuth("Bearer test")
                .actorId("actor-agent-1")
                .clock(CLOCK)
                .build());
    client
        .as("actor-human-1")
        .createWorkSession(
            JarvisJson.mapper()
                .treeToValue(
                    SampleRecords.workSession(
                        "ws-1", "actor-human-1", "worker-human-1", "worker-agent-1", NOW),
                    WorkSession.class));
    agent = client;
    // One options value for every tool: the Policy the agent was given, evaluated locally first.
    options =
        GovernedOptions.builder()
            .policy(JarvisJson.mapper().convertValue(SampleRecords.policy(), Policy.class))
            .build();
  }

  // ---- the agent's tools, as written from the docs ----

  /** Summarizes a document: allowed by the Policy. */
  String summarize(String toolCallId, String doc) {
    return agent
        .governed("ws-1", options)
        .action("summarize")
        .target("doc:" + doc)
        .risk(RiskClass.LOW)
        .key(toolCallId)
        .build()
        .run(permit -> "A summary of " + doc, s -> ActionReport.of("Summarized " + doc + "."))
        .forModel();
  }

  /** Deletes a repository: the Policy denies it, so the body never runs. */
  String deleteRepository(String toolCallId, String repo) {
    return agent
        .governed("ws-1", options)
        .action("delete_repository")
        .target("repo:" + repo)
        .risk(RiskClass.HIGH)
        .key(toolCallId)
        .build()
        .run(permit -> deleted.add(repo))
        .forModel();
  }

  // ---- what the model sees ----

  @Test
  void anAllowedToolRunsAndTheModelReadsItsSummary() {
    assertEquals("Done: Summarized notes.", summarize("call-1", "notes"));
  }

  @Test
  void aDeniedToolNeverRunsAndTheModelReadsWhy() {
    String told = deleteRepository("call-2", "main");

    assertEquals(List.of(), deleted);
    assertTrue(told.startsWith("Not run. delete_repository is not permitted"), told);
  }

  @Test
  void theSameToolCallReplayedAfterACrashIsNotRunTwice() {
    summarize("call-3", "notes");

    assertTrue(summarize("call-3", "notes").startsWith("Already done"));
  }
}
