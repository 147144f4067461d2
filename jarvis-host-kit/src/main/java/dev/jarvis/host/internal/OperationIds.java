package dev.jarvis.host.internal;

/**
 * The spec's operationIds, named once for the host kit's rules. {@code OperationIdsTest} checks
 * that each is an operation of the spec, so a renamed operation fails the build, not a request.
 */
final class OperationIds {

  static final String REGISTER_WORKER = "registerWorker";
  static final String REGISTER_ACTOR = "registerActor";
  static final String CREATE_WORK_SESSION = "createWorkSession";
  static final String GET_WORK_SESSION = "getWorkSession";
  static final String APPEND_JARVIS_EVENT = "appendJarvisEvent";
  static final String RECORD_POLICY_DECISION = "recordPolicyDecision";
  static final String CREATE_REQUEST = "createRequest";
  static final String RECORD_REVIEW = "recordReview";
  static final String RECORD_TAKEOVER = "recordTakeover";
  static final String RECORD_CONTRIBUTION = "recordContribution";
  static final String CREATE_LEARNING_RECORD = "createLearningRecord";
  static final String CREATE_MEMORY_PROPOSAL = "createMemoryProposal";
  static final String CREATE_SKILL_PROPOSAL = "createSkillProposal";
  static final String EXPORT_EVIDENCE_MANIFEST = "exportEvidenceManifest";
  static final String SUBMIT_OUTCOME_REPORT = "submitOutcomeReport";

  private OperationIds() {}
}
