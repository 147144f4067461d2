package dev.jarvis.client;

import dev.jarvis.model.Actor;
import dev.jarvis.model.Contribution;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.LearningRecord;
import dev.jarvis.model.MemoryProposal;
import dev.jarvis.model.OutcomeReport;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.Request;
import dev.jarvis.model.Review;
import dev.jarvis.model.SkillProposal;
import dev.jarvis.model.Takeover;
import dev.jarvis.model.WorkSession;
import dev.jarvis.model.Worker;
import java.util.List;
import java.util.function.Supplier;

/** Each of the 15 operations as a call on the fixture records, with its method and path. */
record OperationCase(String operationId, String method, String path, Supplier<JarvisCall<?>> call) {

  static final String WS = ClientFixture.SESSION;

  @Override
  public String toString() {
    return operationId;
  }

  static List<OperationCase> all() {
    return List.of(
        new OperationCase(
            "registerWorker",
            "PUT",
            "/workers/worker-agent-001",
            () -> JarvisCall.registerWorker(Records.of(Worker.class))),
        new OperationCase(
            "registerActor",
            "PUT",
            "/actors/actor-agent-001",
            () -> JarvisCall.registerActor(Records.of(Actor.class))),
        new OperationCase(
            "createWorkSession",
            "POST",
            "/work-sessions",
            () -> JarvisCall.createWorkSession(Records.of(WorkSession.class))),
        new OperationCase(
            "getWorkSession", "GET", "/work-sessions/" + WS, () -> JarvisCall.getWorkSession(WS)),
        new OperationCase(
            "appendJarvisEvent",
            "POST",
            "/work-sessions/" + WS + "/events",
            () -> JarvisCall.appendJarvisEvent(WS, Records.of(JarvisEvent.class))),
        new OperationCase(
            "recordPolicyDecision",
            "POST",
            "/work-sessions/" + WS + "/policy-decisions",
            () -> JarvisCall.recordPolicyDecision(WS, Records.of(PolicyDecision.class))),
        new OperationCase(
            "createRequest",
            "POST",
            "/work-sessions/" + WS + "/requests",
            () -> JarvisCall.createRequest(WS, Records.of(Request.class))),
        new OperationCase(
            "recordReview",
            "POST",
            "/work-sessions/" + WS + "/reviews",
            () -> JarvisCall.recordReview(WS, Records.of(Review.class)).as("actor-human-001")),
        new OperationCase(
            "recordTakeover",
            "POST",
            "/work-sessions/" + WS + "/takeovers",
            () -> JarvisCall.recordTakeover(WS, Records.of(Takeover.class)).as("actor-human-001")),
        new OperationCase(
            "recordContribution",
            "POST",
            "/work-sessions/" + WS + "/contributions",
            () -> JarvisCall.recordContribution(WS, Records.of(Contribution.class))),
        new OperationCase(
            "createLearningRecord",
            "POST",
            "/work-sessions/" + WS + "/learning-records",
            () -> JarvisCall.createLearningRecord(WS, Records.of(LearningRecord.class))),
        new OperationCase(
            "createMemoryProposal",
            "POST",
            "/work-sessions/" + WS + "/memory-proposals",
            () -> JarvisCall.createMemoryProposal(WS, Records.of(MemoryProposal.class))),
        new OperationCase(
            "createSkillProposal",
            "POST",
            "/work-sessions/" + WS + "/skill-proposals",
            () -> JarvisCall.createSkillProposal(WS, Records.of(SkillProposal.class))),
        new OperationCase(
            "exportEvidenceManifest",
            "GET",
            "/work-sessions/" + WS + "/export",
            () -> JarvisCall.exportEvidenceManifest(WS)),
        new OperationCase(
            "submitOutcomeReport",
            "POST",
            "/outcome-reports",
            () -> JarvisCall.submitOutcomeReport(Records.of(OutcomeReport.class))));
  }
}
