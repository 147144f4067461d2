package dev.jarvis.examples.cli;

/**
 * The Policy the demo's sessions run under (the spec has no operation for Policies; a host holds
 * them): summaries are allowed, deleting a repository is denied, fetching an external source needs
 * a human's review.
 */
public final class DemoPolicy {

  public static final String JSON =
      """
      {"id": "policy-bounded-001", "owner_worker_id": "worker-human-001",
       "created_by_actor_id": "actor-human-001", "autonomy_level": "execute_with_review",
       "allowed_actions": [{"action": "summarize"}],
       "denied_actions": [{"action": "delete_repository"}],
       "review_required_actions": [{"action": "fetch_external_source"}],
       "risk_classes": ["low", "medium"], "escalation_rules": [],
       "created_at": "2026-01-01T00:00:00Z", "tool_grants": ["tool:search"],
       "request_limits": {"max_pending_requests": 2}}
      """;

  private DemoPolicy() {}
}
