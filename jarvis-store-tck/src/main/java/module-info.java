/**
 * The store contract suite ({@code HostStoresContract}): JUnit 5 tests a store implementation
 * extends in its own tests.
 */
module dev.jarvis.store.tck {
  // The contract's API is the host kit's store types and JUnit's annotations and assertions.
  requires transitive dev.jarvis.host;
  requires transitive org.junit.jupiter.api;
  requires transitive org.junit.jupiter.params;
  // The host pair registers the sample records.
  requires dev.jarvis.samples;

  exports dev.jarvis.store.tck;

  // JUnit invokes the contract's test and factory methods (not all public) by reflection.
  opens dev.jarvis.store.tck to
      org.junit.platform.commons;
}
