package dev.jarvis.examples.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.examples.walkthrough.AgentWalkthrough;
import dev.jarvis.host.reference.ReferenceHost;
import dev.jarvis.host.reference.ReferenceHostConfig;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code demo [--base-url URL --token T] [--out FILE]}: runs the agent walkthrough. Without a base
 * URL it starts the embedded reference host on a free loopback port first.
 */
final class DemoCommand {

  /** Held so that the level set on it is not lost when the logger is collected. */
  private static final Logger QUIET_HOST_LOG = Logger.getLogger(ServeCommand.REQUEST_LOG);

  private DemoCommand() {}

  static int run(String[] args, PrintStream out) throws Exception {
    Flags flags = Flags.parse(args, "--base-url", "--token", "--out");
    Path manifestFile = Path.of(flags.get("--out").orElse("jarvis-demo-manifest.json"));
    Optional<String> baseUrl = flags.get("--base-url");
    if (baseUrl.isPresent() != flags.get("--token").isPresent()) {
      throw new CliException("--base-url and --token go together");
    }
    Clock clock = Clock.systemUTC();
    ReferenceHost embedded = null;
    try {
      String token;
      String base;
      if (baseUrl.isPresent()) {
        token = flags.required("--token");
        base = baseUrl.get();
        out.println("Running the walkthrough against " + base);
      } else {
        byte[] secret = new byte[16];
        new SecureRandom().nextBytes(secret);
        token = HexFormat.of().formatHex(secret);
        out.println("Starting the embedded reference host …");
        // The timeline is the demo's output; the host's per-request log would drown it.
        QUIET_HOST_LOG.setLevel(Level.WARNING);
        JsonNode policy = JarvisJson.mapper().readTree(DemoPolicy.JSON);
        embedded = ReferenceHost.start(ReferenceHostConfig.of(token).withPolicy(policy));
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
      ChainCursor clientView = client.cursor(result.workSessionId()).orElse(result.finalCursor());
      boolean chainAgrees =
          clientView.equals(result.finalCursor())
              && result.manifest().getEventChainRoot().equals(result.finalCursor().lastEventHash());
      out.printf(
          "Chain check: the client's cursor (revision %d), the host's WorkSession and the manifest's"
              + " event_chain_root %s.%n",
          result.finalCursor().revision(), chainAgrees ? "agree" : "DISAGREE");
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
}
