package dev.jarvis.conformance;

/** Runs the live check groups against a host, in order: registration first, every answer last. */
final class LiveChecks {

  private LiveChecks() {}

  static void run(ConformanceConfig config, SuiteExchanges host, CheckRunner runner) {
    LiveHost live = new LiveHost(config, host);
    runner.note(live.suitePolicy.note());
    SetupChecks.run(runner, live);
    HeaderChecks.run(runner, live);
    GenesisChecks.run(runner, live);
    ChainChecks.run(runner, live);
    CapabilityChecks.cursorHeaders(runner, live);
    boolean eventLogServed = EventLogChecks.run(runner, live);
    SignatureChecks.run(runner, live, config.requiredSigner());
    IdempotencyChecks.run(runner, live);
    IdMatchingChecks.run(runner, live);
    ExportChecks.run(runner, live);
    PurposeChecks.run(runner, live);
    // After the purpose checks, which register the Actor outside the suite's WorkSessions.
    EventStreamChecks.run(runner, live, eventLogServed);
    RequestInboxChecks.run(runner, live);
    PolicyChecks.run(runner, live);
    GovernanceChecks.run(runner, live);
    AnswerChecks.run(runner, live);
  }
}
