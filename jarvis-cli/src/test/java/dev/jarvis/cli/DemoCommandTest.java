package dev.jarvis.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.reference.ReferenceHost;
import dev.jarvis.host.reference.ReferenceHostConfig;
import dev.jarvis.samples.SampleRecords;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's main job: the walkthrough against the embedded reference host, over loopback; and
 * against hosts that cannot be read back (no {@code event-log}: not declared, or answered 405 by
 * something in front of the host), where the demo audits what it holds and says what it could not
 * check.
 */
class DemoCommandTest {

  @TempDir Path dir;

  /** The demo's exit code, and what it printed on standard output and error. */
  private record Run(int code, String out, String err) {}

  private Run demo(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        new JarvisCli()
            .run(
                args,
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** A reference host in demo mode holding the walkthrough's Policy, with these settings. */
  private static ReferenceHost host(String token, UnaryOperator<HostConfig.Builder> settings) {
    return ReferenceHost.start(
        ReferenceHostConfig.demo(token).policy(SampleRecords.policy()).host(settings).build());
  }

  @Test
  void onAHostWithoutEventLogTheDemoAuditsWhatItHoldsAndSaysWhatItCouldNotCheck() {
    String token = "demo-no-event-log";
    try (ReferenceHost host =
        host(token, b -> b.capabilities(List.of(JarvisHeaders.CURSOR_HEADERS_CAPABILITY)))) {
      Run run =
          demo(
              "demo",
              "--base-url",
              host.baseUri().toString(),
              "--token",
              token,
              "--out",
              dir.resolve("manifest.json").toString());

      assertEquals(0, run.code(), run.out() + run.err());
      assertOfflineAudit(run.out(), "405");
    }
  }

  @Test
  void behindAProxyThatAnswersTheEventsRead405TheDemoAuditsOfflineAndPasses() {
    String token = "demo-behind-a-proxy";
    // The host has event-log and says so; the proxy in front of it refuses the read, as a
    // gateway that routes only the spec's operations does.
    try (ReferenceHost host = host(token, UnaryOperator.identity())) {
      WireMockServer proxy = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
      proxy.start();
      try {
        proxy.stubFor(
            any(anyUrl())
                .atPriority(10)
                // Without the base URI's trailing slash: WireMock appends the request's path.
                .willReturn(
                    aResponse().proxiedFrom(host.baseUri().toString().replaceAll("/+$", ""))));
        proxy.stubFor(
            get(urlPathMatching("/work-sessions/[^/]+/events"))
                .atPriority(1)
                .willReturn(aResponse().withStatus(405)));
        Run run =
            demo(
                "demo",
                "--base-url",
                "http://127.0.0.1:" + proxy.port(),
                "--token",
                token,
                "--out",
                dir.resolve("manifest.json").toString());

        assertEquals(0, run.code(), run.out() + run.err());
        assertOfflineAudit(run.out(), "405");
        proxy.verify(1, getRequestedFor(urlPathMatching("/work-sessions/[^/]+/events")));
      } finally {
        proxy.stop();
      }
    }
  }

  private static boolean line(String text, String regex) {
    return text.lines().anyMatch(l -> l.strip().matches(regex));
  }

  /** The offline audit passed what it could check, and named what it could not, and why. */
  private static void assertOfflineAudit(String text, String status) {
    assertTrue(text.contains("OutcomeReport"), text);
    assertTrue(text.contains("No online audit: The host does not declare"), text);
    assertTrue(text.contains("Auditing offline what the demo holds: the 2 events"), text);
    assertTrue(line(text, "SKIP chain +could not check: .*"), text);
    assertTrue(text.contains("(it answered " + status + ")"), text);
    assertTrue(text.contains("PASS revision"), text);
    assertTrue(text.contains("PASS last_event_hash"), text);
    assertTrue(text.contains("PASS manifest_root"), text);
    assertTrue(line(text, "SKIP manifest_refs +could not check: .*"), text);
    assertTrue(text.contains("Could not check without event-log: chain, manifest_refs."), text);
    assertTrue(text.contains("Verdict: PASSED"), text);
    assertFalse(text.contains("FAIL"), text);
  }

  @Test
  void theDemoRunsTheWholeWalkthroughAndWritesAValidManifest() throws Exception {
    Path manifest = dir.resolve("manifest.json");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int code =
        new JarvisCli()
            .run(
                new String[] {"demo", "--out", manifest.toString()},
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));

    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, text + err.toString(StandardCharsets.UTF_8));
    assertTrue(text.contains("OutcomeReport"), text);
    assertTrue(text.contains("PASS chain"), text);
    assertTrue(text.contains("PASS manifest_root"), text);
    assertFalse(text.contains("could not check"), text);
    assertTrue(text.contains("Verdict: PASSED"), text);
    assertTrue(text.strip().endsWith(manifest.toAbsolutePath().toString()), text);
    JsonNode written = JarvisJson.mapper().readTree(Files.readAllBytes(manifest));
    assertEquals(
        java.util.List.of(), PayloadValidator.forSpec().validate("EvidenceManifest", written));
  }

  @Test
  void aBaseUrlWithoutATokenIsAUsageError() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        new JarvisCli()
            .run(
                new String[] {"demo", "--base-url", "http://127.0.0.1:1"},
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, code);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("--token"));
  }
}
