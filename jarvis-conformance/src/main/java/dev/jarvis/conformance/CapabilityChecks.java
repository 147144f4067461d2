package dev.jarvis.conformance;

import static dev.jarvis.conformance.ExchangeRules.expectSuccess;

import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.headers.JarvisHeaders;
import java.util.List;

/**
 * Live checks that a capability the host declares in {@code Jarvis-Host-Capabilities} is one it
 * serves: each optional group runs only where the host declares its capability, and a host that
 * declares one it does not serve fails this one clearly named check, not every check of the group
 * (nor the answer checks, which leave the answers judged here out).
 */
final class CapabilityChecks {

  static final String EVENT_LOG_SERVED = "a host that declares event-log serves its read";

  private CapabilityChecks() {}

  /** The skip of a check of a capability the host does not declare. */
  static CheckSkipped notDeclared(String capability) {
    return new CheckSkipped(
        "the host does not declare " + capability + " in " + JarvisHeaders.HOST_CAPABILITIES);
  }

  /**
   * Every accepted WorkSession mutation of the run so far answered with both cursor headers, where
   * the host declares {@code cursor-headers}; their values are checked where each mutation is.
   */
  static void cursorHeaders(CheckRunner runner, LiveHost live) {
    String capability = JarvisHeaders.CURSOR_HEADERS_CAPABILITY;
    runner.check(
        capability,
        "a host that declares cursor-headers sends them with every accepted WorkSession mutation",
        () -> {
          if (!live.declares(capability)) {
            throw notDeclared(capability);
          }
          List<Exchange> mutations =
              live.exchanges().stream()
                  .filter(e -> e.status() / 100 == 2)
                  .filter(
                      e -> ExchangeRules.operation(e.operationId()).operationClass().needsCursor())
                  .toList();
          if (mutations.isEmpty()) {
            throw new CheckSkipped("the run has no accepted WorkSession mutation to look at");
          }
          for (Exchange mutation : mutations) {
            if (mutation.responseHeader(JarvisHeaders.WORK_SESSION_REVISION).isEmpty()
                || mutation.responseHeader(JarvisHeaders.LAST_EVENT_HASH).isEmpty()) {
              throw new CheckFailure(
                  "the host declares "
                      + capability
                      + " but answered an accepted "
                      + mutation.operationId()
                      + " without "
                      + JarvisHeaders.WORK_SESSION_REVISION
                      + " and "
                      + JarvisHeaders.LAST_EVENT_HASH
                      + ": send them, or do not declare "
                      + capability);
            }
          }
          return mutations.size() + " accepted mutations, each with both cursor headers";
        });
  }

  /**
   * Where the host declares {@code event-log}, a member's read of its WorkSession's log answers a
   * page; answers whether the host serves it (false where it does not declare it).
   */
  static boolean eventLogServed(CheckRunner runner, LiveHost live) {
    String capability = EventLog.CAPABILITY;
    boolean[] served = {false};
    runner.check(
        capability,
        EVENT_LOG_SERVED,
        () -> {
          if (!live.declares(capability)) {
            throw notDeclared(capability);
          }
          String session = live.newSession();
          Exchange page = live.events(session, "", live.human);
          if (page.status() / 100 != 2) {
            live.judged(page);
            ProtocolOperation read = EventLog.OPERATION;
            throw new CheckFailure(
                "the host declares "
                    + capability
                    + " in "
                    + JarvisHeaders.HOST_CAPABILITIES
                    + " but answered "
                    + read.httpMethod()
                    + " "
                    + read.path()
                    + " of a member's own WorkSession "
                    + page.status()
                    + " "
                    + page.bodyExcerpt()
                    + ": serve the read (docs/host.md, \"Events appended\"), or do not declare "
                    + capability);
          }
          expectSuccess(page);
          served[0] = true;
          return null;
        });
    return served[0];
  }
}
