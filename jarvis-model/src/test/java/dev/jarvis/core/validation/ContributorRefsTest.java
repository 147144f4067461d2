package dev.jarvis.core.validation;

import static dev.jarvis.core.validation.Expect.VALIDATOR;
import static dev.jarvis.core.validation.Payloads.array;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Rules 4 and 5: duplicates by {@code x-jarvis-unique-by}, seen on the raw JSON, and the
 * contributor list of a Contribution.
 */
class ContributorRefsTest extends PayloadRuleTable {

  static Stream<Arguments> refused() {
    return Stream.of(
        refused(
            "the same worker and actor twice, in different roles",
            "Contribution",
            n -> addRef(n, "worker-human-001", "actor-human-001", "shared"),
            "duplicate_contributor_ref",
            "/contributor_refs/1"),
        refused(
            "the same contributor reference twice, reported once",
            "Contribution",
            n -> addRef(n, "worker-human-001", "actor-human-001", "human"),
            "duplicate_contributor_ref",
            "/contributor_refs/1"),
        refused(
            "an evidence item listed twice",
            "EvidenceManifest",
            n -> array(n, "evidence_item_refs").add(array(n, "evidence_item_refs").get(0)),
            "duplicate_evidence_item_ref",
            "/evidence_item_refs/1"),
        refused(
            "two evidence items sharing an id",
            "EvidenceManifest",
            n ->
                array(n, "evidence_item_refs")
                    .add(
                        ((ObjectNode) array(n, "evidence_item_refs").get(0).deepCopy())
                            .put("content_hash", "hash:other")),
            "duplicate_evidence_item_ref",
            "/evidence_item_refs/1"),
        refused(
            "a shared Contribution with one contributor",
            "Contribution",
            n -> n.put("contributor_type", "shared"),
            "shared_contribution_without_individual_refs",
            "/contributor_refs"),
        refused(
            "no contributor_refs",
            "Contribution",
            n -> n.remove("contributor_refs"),
            "missing_contribution_actor",
            "/contributor_refs"),
        refused(
            "an empty contributor list",
            "Contribution",
            n -> n.putArray("contributor_refs"),
            "missing_contribution_actor",
            "/contributor_refs"),
        refused(
            "a contributor without its Actor",
            "Contribution",
            n -> ((ObjectNode) array(n, "contributor_refs").get(0)).remove("actor_id"),
            "missing_contribution_actor",
            "/contributor_refs/0/actor_id"),
        refused(
            "a contributor in an unknown role",
            "Contribution",
            n ->
                ((ObjectNode) array(n, "contributor_refs").get(0)).put("contribution_role", "boss"),
            "invalid_contributor_refs",
            "/contributor_refs/0/contribution_role"),
        refused(
            "contributor_refs that is not a list",
            "Contribution",
            n -> n.put("contributor_refs", "worker-human-001"),
            "invalid_contributor_refs",
            "/contributor_refs"));
  }

  static Stream<Arguments> accepted() {
    return Stream.of(
        accepted(
            "the same worker through two Actors",
            "Contribution",
            n -> addRef(n, "worker-human-001", "actor-human-002", "human")),
        accepted(
            "a shared Contribution with two individual contributors",
            "Contribution",
            n ->
                addRef(
                    n.put("contributor_type", "shared"),
                    "worker-agent-001",
                    "actor-agent-001",
                    "agent")),
        accepted(
            "two evidence items with different ids",
            "EvidenceManifest",
            n ->
                array(n, "evidence_item_refs")
                    .add(
                        ((ObjectNode) array(n, "evidence_item_refs").get(0).deepCopy())
                            .put("id", "evidence-source-002"))));
  }

  @Test
  void aSharedContributionWithNoContributorIsBothUnattributedAndNotShared() {
    var violations =
        VALIDATOR.validate(
            "Contribution",
            Payloads.edited(
                "Contribution",
                n -> n.put("contributor_type", "shared").putArray("contributor_refs")));
    Expect.includes(violations, "missing_contribution_actor", "/contributor_refs");
    Expect.includes(violations, "shared_contribution_without_individual_refs", "/contributor_refs");
  }

  @Test
  void everyRepeatIsReportedAtItsOwnIndex() {
    var violations =
        VALIDATOR.validate(
            "Contribution",
            Payloads.edited(
                "Contribution",
                n -> {
                  addRef(n, "worker-human-001", "actor-human-001", "human");
                  addRef(n, "worker-human-001", "actor-human-001", "shared");
                }));
    org.junit.jupiter.api.Assertions.assertEquals(
        List.of("/contributor_refs/1", "/contributor_refs/2"),
        violations.stream().map(v -> v.field()).toList(),
        () -> Expect.show(violations));
  }

  private static void addRef(ObjectNode contribution, String worker, String actor, String role) {
    ArrayNode refs = array(contribution, "contributor_refs");
    refs.addObject().put("worker_id", worker).put("actor_id", actor).put("contribution_role", role);
  }
}
