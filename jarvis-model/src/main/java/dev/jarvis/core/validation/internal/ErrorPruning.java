package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Drops the validator errors that restate another problem, so that one problem is one violation.
 * The payload's validity never changes: a finding is dropped only when another one stays.
 *
 * <ul>
 *   <li>{@code anyOf} ({@code PortableValue}): the validator reports every failed branch. Branches
 *       whose {@code type} does not fit the value are dropped; the branch of the value's own type
 *       explains the failure. If no branch fits, the first branch's type error stays.
 *   <li>{@code additionalProperties} for a property that {@code x-jarvis-forbidden-fields} reports
 *       at the same place: the forbidden field is the problem.
 *   <li>{@code uniqueItems} on an array where {@code x-jarvis-unique-by} reports a repeated item:
 *       the repeated item is the problem.
 *   <li>an {@code if/then} error whose {@code if} matched only because the properties it tests are
 *       absent (JSON Schema's {@code properties} is vacuously true then): the missing property is
 *       the problem, and it is reported because the schema requires it.
 * </ul>
 */
final class ErrorPruning {

  private ErrorPruning() {}

  static List<Finding> prune(List<Finding> findings, JsonNode instance, SpecTree spec) {
    Map<String, Set<Integer>> misfits = misfitBranches(findings);
    Set<JsonPointer> forbidden = new HashSet<>();
    Set<JsonPointer> repeatedIn = new HashSet<>();
    for (Finding f : findings) {
      if (f.keyword().equals(JarvisKeywords.FORBIDDEN_FIELDS)) {
        forbidden.add(f.atProperty());
      } else if (f.keyword().equals(JarvisKeywords.UNIQUE_BY)) {
        repeatedIn.add(f.at().head());
      }
    }
    List<Finding> kept = new ArrayList<>();
    for (Finding f : findings) {
      boolean restated =
          (f.keyword().equals("additionalProperties") && forbidden.contains(f.atProperty()))
              || (f.keyword().equals("uniqueItems") && repeatedIn.contains(f.at()))
              || inMisfitBranch(f, misfits)
              || isVacuousThen(f, instance, spec);
      if (!restated) {
        kept.add(f);
      }
    }
    return kept;
  }

  /** For each {@code anyOf} application, the branches whose root {@code type} misfits the value. */
  private static Map<String, Set<Integer>> misfitBranches(List<Finding> findings) {
    Map<String, Set<Integer>> misfits = new HashMap<>();
    for (Finding f : findings) {
      List<SchemaTrail.Branch> branches = f.trail().branches();
      if (f.keyword().equals("type") && f.trail().atBranchRoot() && !branches.isEmpty()) {
        SchemaTrail.Branch branch = branches.get(branches.size() - 1);
        misfits.computeIfAbsent(key(f, branch), k -> new HashSet<>()).add(branch.index());
      }
    }
    return misfits;
  }

  private static boolean inMisfitBranch(Finding f, Map<String, Set<Integer>> misfits) {
    for (SchemaTrail.Branch branch : f.trail().branches()) {
      Set<Integer> misfit = misfits.getOrDefault(key(f, branch), Set.of());
      if (!misfit.contains(branch.index())) {
        continue;
      }
      boolean noBranchFits = misfit.size() == branch.branchCount();
      if (!noBranchFits || branch.index() != misfit.stream().min(Integer::compare).orElseThrow()) {
        return true;
      }
    }
    return false;
  }

  /** One {@code anyOf} applied to one value. */
  private static String key(Finding f, SchemaTrail.Branch branch) {
    return branch.anyOf()
        + " @ "
        + InstancePointer.of(f.error().instancePath(), branch.instanceDepth());
  }

  private static boolean isVacuousThen(Finding f, JsonNode instance, SpecTree spec) {
    SchemaTrail.Conditional conditional = f.trail().conditional();
    if (conditional == null) {
      return false;
    }
    JsonNode tested =
        instance.at(InstancePointer.of(f.error().instancePath(), conditional.instanceDepth()));
    JsonNode testedProperties = conditional.ifSchema().path("properties");
    if (!tested.isObject() || testedProperties.isEmpty()) {
      return false;
    }
    Set<String> required = new HashSet<>();
    spec.schema(conditional.component()).path("required").forEach(r -> required.add(r.asText()));
    for (Map.Entry<String, JsonNode> property : testedProperties.properties()) {
      if (tested.has(property.getKey()) || !required.contains(property.getKey())) {
        return false;
      }
    }
    return true;
  }
}
