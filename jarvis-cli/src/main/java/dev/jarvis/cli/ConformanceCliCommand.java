package dev.jarvis.cli;

import dev.jarvis.conformance.ConformanceCommand;
import dev.jarvis.conformance.ConformanceOptions;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code conformance}: the conformance suite against a live host or recorded exchanges. The options
 * are parsed here (help, usage errors) into one {@link ConformanceOptions} value that the suite's
 * own {@link ConformanceCommand} checks and runs, so that the module stays free of the CLI's
 * parser.
 */
@Command(
    name = "conformance",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the protocol checks against any host, prints PASS/FAIL per check and writes JUnit XML"
          + " and Markdown reports; --recorded judges recorded exchanges with no live host.",
      "Against a host that binds tokens to Actors, give one credential per role instead of"
          + " --token: --admin-actor/--admin-token, --human-..., --agent-... (and --outsider-...).",
      "The host must hold the Policy and let it govern every human Worker (serve --assign-policy"
          + " POLICY=*, or demo mode): the suite's human is new in each run. A check the host's"
          + " Policy or capabilities give no way to run is SKIP, with the reason.",
      "Exit 0 no check failed, 1 a check failed, 2 usage error or host unreachable."
    })
final class ConformanceCliCommand implements Callable<Integer> {

  private final CliIo io;

  @Option(names = "--base-url", paramLabel = "URL", description = "the host under test")
  Optional<String> baseUrl;

  @Option(names = "--token", paramLabel = "T", description = "its bearer token")
  Optional<String> token;

  @Option(names = "--actor", paramLabel = "ID", description = "the admin Actor id")
  Optional<String> actor;

  @Option(
      names = "--admin-actor",
      paramLabel = "ID",
      description = "per-role credentials: the admin Actor its token is bound to")
  Optional<String> adminActor;

  @Option(names = "--admin-token", paramLabel = "T", description = "the admin's bearer token")
  Optional<String> adminToken;

  @Option(
      names = "--human-actor",
      paramLabel = "ID",
      description = "the human Actor its token is bound to")
  Optional<String> humanActor;

  @Option(names = "--human-token", paramLabel = "T", description = "the human's bearer token")
  Optional<String> humanToken;

  @Option(
      names = "--agent-actor",
      paramLabel = "ID",
      description = "the agent Actor its token is bound to")
  Optional<String> agentActor;

  @Option(names = "--agent-token", paramLabel = "T", description = "the agent's bearer token")
  Optional<String> agentToken;

  @Option(
      names = "--outsider-actor",
      paramLabel = "ID",
      description = "optional: an Actor outside the suite's WorkSessions")
  Optional<String> outsiderActor;

  @Option(names = "--outsider-token", paramLabel = "T", description = "the outsider's token")
  Optional<String> outsiderToken;

  @Option(
      names = "--run-prefix",
      paramLabel = "P",
      description =
          "the start of every Worker and Actor id the suite registers (fresh per run); per-role:"
              + " the human, agent and outsider Actor ids must start with it")
  Optional<String> runPrefix;

  @Option(
      names = "--signer-actor",
      paramLabel = "ID",
      description = "for the signatures checks: an Actor the host requires to sign its events")
  Optional<String> signerActor;

  @Option(names = "--signer-key-id", paramLabel = "KID", description = "the id of its key")
  Optional<String> signerKeyId;

  @Option(
      names = "--signer-key",
      paramLabel = "FILE",
      description = "a file holding its key (base64 PKCS #8 Ed25519)")
  Optional<Path> signerKey;

  @Option(
      names = "--policy",
      paramLabel = "ID",
      description =
          "the id of the Policy the host holds for the suite's WorkSessions (default"
              + " policy-bounded-001, then assumed to be the SDK's sample Policy)")
  Optional<String> policy;

  @Option(
      names = "--policy-file",
      paramLabel = "FILE",
      description =
          "the JSON of the Policy the host holds for the suite's WorkSessions: the checks take"
              + " every action they send from it; its id replaces --policy")
  Optional<Path> policyFile;

  @Option(
      names = "--foreign-policy",
      paramLabel = "ID",
      description =
          "a Policy the host holds that neither is owned by nor assigned to the suite's human,"
              + " for the checks that no WorkSession of that human opens under it")
  Optional<String> foreignPolicy;

  @Option(names = "--report-dir", paramLabel = "DIR", description = "where reports go")
  Optional<Path> reportDir;

  @Option(names = "--record-to", paramLabel = "DIR", description = "record every exchange here")
  Optional<Path> recordTo;

  @Option(names = "--recorded", paramLabel = "DIR", description = "judge recorded exchanges")
  Optional<Path> recorded;

  ConformanceCliCommand(CliIo io) {
    this.io = io;
  }

  @Override
  public Integer call() {
    ConformanceOptions.Builder options = ConformanceOptions.builder();
    baseUrl.ifPresent(options::baseUrl);
    token.ifPresent(options::token);
    actor.ifPresent(options::actor);
    runPrefix.ifPresent(options::runPrefix);
    policy.ifPresent(options::policy);
    reportDir.ifPresent(options::reportDir);
    recordTo.ifPresent(options::recordTo);
    recorded.ifPresent(options::recorded);
    adminActor.ifPresent(v -> options.roleActor("admin", v));
    adminToken.ifPresent(v -> options.roleToken("admin", v));
    humanActor.ifPresent(v -> options.roleActor("human", v));
    humanToken.ifPresent(v -> options.roleToken("human", v));
    agentActor.ifPresent(v -> options.roleActor("agent", v));
    agentToken.ifPresent(v -> options.roleToken("agent", v));
    outsiderActor.ifPresent(v -> options.roleActor("outsider", v));
    outsiderToken.ifPresent(v -> options.roleToken("outsider", v));
    signerActor.ifPresent(options::signerActor);
    signerKeyId.ifPresent(options::signerKeyId);
    signerKey.ifPresent(options::signerKey);
    policyFile.ifPresent(options::policyFile);
    foreignPolicy.ifPresent(options::foreignPolicy);
    return ConformanceCommand.run(options.build(), io.out(), io.err());
  }
}
