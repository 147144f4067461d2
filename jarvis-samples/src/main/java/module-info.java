/**
 * Sample data shared by the SDK's tools and tests: {@code SampleRecords}, spec-valid records and
 * the sample Policy the demo, the test kit, the load generator and the conformance suite hold.
 */
module dev.jarvis.samples {
  // The samples are the model's records and Jackson trees.
  requires transitive dev.jarvis.model;

  exports dev.jarvis.samples;
}
