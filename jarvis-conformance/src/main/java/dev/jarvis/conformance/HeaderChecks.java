package dev.jarvis.conformance;

import static dev.jarvis.conformance.ExchangeRules.expectNoMutationHeaderDemand;
import static dev.jarvis.conformance.ExchangeRules.expectRefusal;
import static dev.jarvis.conformance.ExchangeRules.expectSuccess;

import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.samples.SampleRecords;
import java.util.List;
import java.util.Map;

/**
 * Live checks: the protocol headers each operation class requires; reads require no mutation
 * header.
 */
final class HeaderChecks {

  private HeaderChecks() {}

  static void run(CheckRunner runner, LiveHost live) {
    mutationHeaders(runner, live);
    reads(runner, live);
  }

  private static void mutationHeaders(CheckRunner runner, LiveHost live) {
    String group = "headers";
    for (String header :
        JarvisHeaders.required(ProtocolOperations.byId("registerWorker").operationClass())) {
      runner.check(
          group,
          "registerWorker without " + header + " is refused with " + LiveHost.missingId(header),
          () -> {
            String worker = live.id("worker-headers");
            Map<String, String> headers = live.headers("registerWorker", live.registrar, null);
            headers.remove(header);
            expectRefusal(
                live.send("registerWorker", worker, headers, SampleRecords.worker(worker, "agent")),
                LiveHost.missingId(header));
            return null;
          });
    }
    for (String header : JarvisHeaders.MUTATION) {
      runner.check(
          group,
          "createWorkSession without " + header + " is refused with " + LiveHost.missingId(header),
          () -> {
            Map<String, String> headers =
                live.headers("createWorkSession", live.human, ChainCursor.GENESIS);
            headers.remove(header);
            expectRefusal(
                live.send(
                    "createWorkSession", null, headers, live.sessionBody(live.id("ws-headers"))),
                LiveHost.missingId(header));
            return null;
          });
    }
    for (String header : JarvisHeaders.MUTATION) {
      runner.check(
          group,
          "recordPolicyDecision without "
              + header
              + " is refused with "
              + LiveHost.missingId(header),
          () -> {
            String session = live.newSession();
            Map<String, String> headers =
                live.headers("recordPolicyDecision", live.agent, live.cursor(session));
            headers.remove(header);
            expectRefusal(
                live.send(
                    "recordPolicyDecision", session, headers, live.decision(session, live.agent)),
                LiveHost.missingId(header));
            return null;
          });
    }
  }

  private static void reads(CheckRunner runner, LiveHost live) {
    String group = "reads";
    runner.check(
        group,
        "getWorkSession needs no mutation headers",
        () -> {
          String session = live.newSession();
          Exchange read = live.send("getWorkSession", session, live.readHeaders(live.human));
          expectSuccess(read);
          return null;
        });
    runner.check(
        group,
        "exportEvidenceManifest needs no mutation headers",
        () -> {
          String session = live.newSession();
          expectNoMutationHeaderDemand(
              live.send("exportEvidenceManifest", session, live.readHeaders(live.human)));
          return null;
        });
    for (String header : List.of(JarvisHeaders.PROTOCOL_VERSION, JarvisHeaders.ACTOR_ID)) {
      runner.check(
          group,
          "getWorkSession without " + header + " is refused with " + LiveHost.missingId(header),
          () -> {
            String session = live.newSession();
            Map<String, String> headers = live.readHeaders(live.human);
            headers.remove(header);
            expectRefusal(
                live.send("getWorkSession", session, headers), LiveHost.missingId(header));
            return null;
          });
    }
  }
}
