package dev.jarvis.host;

/** The kinds of protocol record a host stores, besides WorkSessions and their events. */
public enum RecordKind {
  WORKER,
  ACTOR,
  POLICY,
  POLICY_DECISION,
  REQUEST,
  REVIEW,
  TAKEOVER,
  CONTRIBUTION,
  LEARNING_RECORD,
  MEMORY_PROPOSAL,
  SKILL_PROPOSAL,
  EVIDENCE_MANIFEST,
  OUTCOME_REPORT
}
