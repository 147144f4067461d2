package dev.jarvis.cli;

import dev.jarvis.conformance.ConformanceCommand;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code conformance}: the conformance suite against a live host or recorded exchanges. The options
 * are declared here for help and usage errors; the suite's own {@link ConformanceCommand} runs
 * them, so that the module stays free of the CLI's parser.
 */
@Command(
    name = "conformance",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the protocol checks against any host, prints PASS/FAIL per check and writes JUnit XML"
          + " and Markdown reports; --recorded judges recorded exchanges with no live host.",
      "Against a host that binds tokens to Actors, give one credential per role instead of"
          + " --token: --admin-actor/--admin-token, --human-..., --agent-... (and --outsider-...).",
      "Exit 0 all pass, 1 a check failed, 2 usage error or host unreachable."
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

  @Option(names = "--policy", paramLabel = "ID", description = "a Policy id the host holds")
  Optional<String> policy;

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
    List<String> args = new ArrayList<>();
    add(args, "--base-url", baseUrl.map(String::valueOf));
    add(args, "--token", token);
    add(args, "--actor", actor);
    add(args, "--admin-actor", adminActor);
    add(args, "--admin-token", adminToken);
    add(args, "--human-actor", humanActor);
    add(args, "--human-token", humanToken);
    add(args, "--agent-actor", agentActor);
    add(args, "--agent-token", agentToken);
    add(args, "--outsider-actor", outsiderActor);
    add(args, "--outsider-token", outsiderToken);
    add(args, "--run-prefix", runPrefix);
    add(args, "--policy", policy);
    add(args, "--report-dir", reportDir.map(String::valueOf));
    add(args, "--record-to", recordTo.map(String::valueOf));
    add(args, "--recorded", recorded.map(String::valueOf));
    return ConformanceCommand.run(args.toArray(String[]::new), io.out(), io.err());
  }

  private static void add(List<String> args, String flag, Optional<String> value) {
    value.ifPresent(
        v -> {
          args.add(flag);
          args.add(v);
        });
  }
}
