package dev.jarvis.conformance;

import dev.jarvis.samples.SampleRecords;

/**
 * The Policy the host holds for the suite's WorkSessions, as far as the suite knows it: given (its
 * JSON, {@code --policy-file}), assumed (the SDK's sample Policy, when only its id is named), or
 * known by its id alone; and the actions the checks take from it.
 *
 * @param id the {@code policy_id} of the suite's WorkSessions and decisions
 * @param actions the actions the checks take from it
 * @param assumed whether the suite assumes the Policy is the SDK's sample one, unseen
 */
record SuitePolicy(String id, PolicyActions actions, boolean assumed) {

  /** The Policy of this run's configuration. */
  static SuitePolicy of(ConformanceConfig config) {
    if (config.policy().isPresent()) {
      return new SuitePolicy(config.policyId(), PolicyActions.of(config.policy().get()), false);
    }
    if (config.policyId().equals(SampleRecords.POLICY_ID)) {
      return new SuitePolicy(
          config.policyId(), PolicyActions.of(SampleRecords.policyRecord()), true);
    }
    return new SuitePolicy(config.policyId(), PolicyActions.unknown(config.policyId()), false);
  }

  /** What the reports say of it. */
  String note() {
    if (assumed) {
      return "The suite assumed Policy "
          + id
          + " is the SDK's sample Policy (no --policy-file given): it took its actions from that"
          + " Policy's rules. If the host holds another Policy under this id, give its JSON with"
          + " --policy-file.";
    }
    if (!actions.known()) {
      return "The suite knows Policy "
          + id
          + " by its id only (no --policy-file given): the checks that need an action the Policy"
          + " allows, reviews or denies were skipped.";
    }
    return "The suite took its actions from Policy " + id + " as given (--policy-file).";
  }

  /**
   * The hint a failing Policy check adds where the suite assumed the Policy: the failure may be the
   * assumption's.
   */
  String hint() {
    return assumed
        ? " (the suite assumed Policy "
            + id
            + " is the SDK's sample Policy; if the host holds another, give it with"
            + " --policy-file)"
        : "";
  }

  /**
   * {@code check}, whose failure names the assumption where the suite assumed the Policy: a check
   * that takes its actions from the Policy may fail for the assumption rather than the host.
   */
  CheckRunner.Check hinted(CheckRunner.Check check) {
    if (!assumed) {
      return check;
    }
    return () -> {
      try {
        return check.run();
      } catch (CheckFailure failure) {
        throw new CheckFailure(failure.getMessage() + hint());
      }
    };
  }
}
