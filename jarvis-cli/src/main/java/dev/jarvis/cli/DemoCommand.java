package dev.jarvis.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.cli.demo.AgentWalkthrough;
import dev.jarvis.cli.demo.HeldEvidence;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.JarvisUnsupportedCapabilityException;
import dev.jarvis.client.audit.AuditReport;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.host.reference.ReferenceHost;
import dev.jarvis.host.reference.ReferenceHostConfig;
import dev.jarvis.samples.SampleRecords;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code demo [--base-url URL --token T] [--out FILE]}: runs the agent walkthrough. Without a base
 * URL it starts the embedded reference host on a free loopback port first.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the agent walkthrough and prints its timeline. Without --base-url it starts the"
          + " embedded reference host on a free loopback port.",
      "Ends with an online audit of the WorkSession's event log (as `audit` does); on a host"
          + " without the event-log capability, with an offline audit of what the demo holds"
          + " (the events it appended, the WorkSession after the export, the EvidenceManifest),"
          + " naming each check it could not run and why.",
      "Exit 0 done, 1 the audit found the log wanting (of what it could check)."
    })
final class DemoCommand implements Callable<Integer> {

  /** Held so that the level set on it is not lost when the logger is collected. */
  private static final Logger QUIET_HOST_LOG = Logger.getLogger(ServeCommand.REQUEST_LOG);

  /**
   * The embedded host's own start-up warning speaks of serve's --token; the demo's host is on
   * loopback with a random token that lives as long as the demo, so the warning would mislead.
   */
  private static final Logger QUIET_DEMO_NOTICE =
      Logger.getLogger("dev.jarvis.host.reference.ReferenceHost");

  /** Undertow's and XNIO's start and stop notices (INFO, through JBoss Logging to JUL). */
  private static final List<Logger> QUIET_RUNTIME_LOGS =
      List.of(Logger.getLogger("io.undertow"), Logger.getLogger("org.xnio"));

  private final CliIo io;

  @Option(names = "--base-url", paramLabel = "URL", description = "a running host to walk on")
  Optional<String> baseUrl;

  @Option(names = "--token", paramLabel = "T", description = "its bearer token")
  Optional<String> tokenOption;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description = "where the EvidenceManifest goes (default: ${DEFAULT-VALUE})")
  Path manifestFile = Path.of("jarvis-demo-manifest.json");

  DemoCommand(CliIo io) {
    this.io = io;
  }

  @Override
  public Integer call() throws Exception {
    PrintStream out = io.out();
    if (baseUrl.isPresent() != tokenOption.isPresent()) {
      throw new CliException("--base-url and --token go together");
    }
    Clock clock = Clock.systemUTC();
    ReferenceHost embedded = null;
    try {
      String token;
      String base;
      if (baseUrl.isPresent()) {
        token = tokenOption.orElseThrow();
        base = baseUrl.get();
        out.println("Running the walkthrough against " + base);
      } else {
        byte[] secret = new byte[16];
        new SecureRandom().nextBytes(secret);
        token = HexFormat.of().formatHex(secret);
        out.println("Starting the embedded reference host …");
        // The timeline is the demo's output; the host's per-request log would drown it.
        QUIET_HOST_LOG.setLevel(Level.WARNING);
        QUIET_DEMO_NOTICE.setLevel(Level.SEVERE);
        QUIET_RUNTIME_LOGS.forEach(log -> log.setLevel(Level.WARNING));
        JsonNode policy = SampleRecords.policy();
        embedded = ReferenceHost.start(ReferenceHostConfig.demo(token).policy(policy).build());
        base = embedded.baseUri().toString();
        out.println("Reference host listening on " + base);
      }
      JarvisClient client =
          JarvisClient.create(
              JarvisClientOptions.builder()
                  .baseUri(base)
                  .hostAuth("Bearer " + token)
                  .actorId(AgentWalkthrough.Cast.reference().agentActor())
                  .clock(clock)
                  .userAgentSuffix("jarvis-cli-demo")
                  .build());
      out.println();
      out.println("Timeline:");
      AgentWalkthrough.Result result =
          new AgentWalkthrough(
                  client,
                  AgentWalkthrough.Cast.reference(),
                  clock,
                  () -> UUID.randomUUID().toString().substring(0, 8),
                  out)
              .run();
      out.println();
      AuditReport audit = audit(client, result, out);
      boolean chainAgrees = audit.passed();
      Files.writeString(
          manifestFile,
          JarvisJson.mapper()
              .writerWithDefaultPrettyPrinter()
              .writeValueAsString(result.manifest()));
      out.println("EvidenceManifest written to " + manifestFile.toAbsolutePath());
      return chainAgrees ? 0 : 1;
    } finally {
      if (embedded != null) {
        embedded.close();
      }
    }
  }

  /**
   * The evidence checked as an outsider would: every event read back from the host (event-log),
   * re-hashed from genesis, against the WorkSession and the manifest. A host without event-log (it
   * does not declare it, or something in front of it answers the read 404 or 405) cannot be read
   * back: then what the demo holds is checked offline, and the report says which checks could not
   * run and why; they do not fail the demo, since the host broke no rule by lacking the capability.
   */
  private static AuditReport audit(
      JarvisClient client, AgentWalkthrough.Result result, PrintStream out) {
    try {
      AuditReport online = client.audit(result.workSessionId(), result.manifest());
      AuditCommand.text(out, online);
      return online;
    } catch (JarvisUnsupportedCapabilityException e) {
      out.println("No online audit: " + e.reason());
      out.println(
          "Auditing offline what the demo holds: the "
              + result.appended().size()
              + " events it appended, the WorkSession after the export, the EvidenceManifest.");
      AuditReport offline = HeldEvidence.audit(result, e.reason());
      AuditCommand.text(out, offline);
      List<String> couldNot = HeldEvidence.couldNotCheck(offline);
      if (!couldNot.isEmpty()) {
        out.println("Could not check without event-log: " + String.join(", ", couldNot) + ".");
      }
      return offline;
    }
  }
}
