package dev.jarvis.cli;

import dev.jarvis.cli.load.LoadCast;
import dev.jarvis.cli.load.LoadGenerator;
import dev.jarvis.cli.load.LoadOperation;
import dev.jarvis.cli.load.LoadPlan;
import dev.jarvis.cli.load.LoadResults;
import dev.jarvis.cli.load.LoadSetupException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code load}: a load generator for any Jarvis host, the command-line face of {@link
 * LoadGenerator}. Each connection works on its own WorkSession and its own HTTP client (so its own
 * keep-alive connection), builds, hashes and chains every event as a correct agent would, and
 * checks every answer against the spec. {@code --light} is the benchmarks' mode: the same chained
 * requests written from a template over a plain socket, answers read for status and cursor only.
 */
@Command(
    name = "load",
    mixinStandardHelpOptions = true,
    description = {
      "Drives a Jarvis host with correct, chained requests and reports throughput, latency"
          + " percentiles (HDR histogram), refusals by error_id and transport errors.",
      "Exit 0 done, 1 an answer was off-spec or a chain broke, 2 usage error or host unreachable."
    })
final class LoadCommand implements Callable<Integer> {

  private final CliIo io;

  @Option(names = "--base-url", required = true, paramLabel = "URL", description = "the host")
  URI baseUrl;

  @Option(names = "--token", required = true, paramLabel = "T", description = "its bearer token")
  String token;

  @Option(
      names = "--connections",
      paramLabel = "N",
      description = "connections, each on its own WorkSession (default: ${DEFAULT-VALUE})")
  int connections = 16;

  @Option(
      names = "--duration",
      paramLabel = "S",
      description = "measured seconds (default: ${DEFAULT-VALUE})")
  int durationSeconds = 30;

  @Option(
      names = "--warmup",
      paramLabel = "S",
      description = "seconds of load before measuring (default: ${DEFAULT-VALUE})")
  int warmupSeconds = 10;

  @Option(
      names = "--operation",
      paramLabel = "OP",
      description =
          "appendJarvisEvent, recordPolicyDecision or getWorkSession (default: ${DEFAULT-VALUE})")
  LoadOperation operation = LoadOperation.appendJarvisEvent;

  @Option(
      names = "--admin-actor",
      paramLabel = "ID",
      description = "registers the load's Workers and Actors (default: ${DEFAULT-VALUE})")
  String admin = "host-admin";

  @Option(
      names = "--actor",
      paramLabel = "ID",
      description =
          "a registered human Actor to act as, with --worker and --agent-worker; without it the"
              + " load registers its own")
  Optional<String> actor;

  @Option(names = "--worker", paramLabel = "ID", description = "the human Actor's Worker")
  Optional<String> worker;

  @Option(names = "--agent-worker", paramLabel = "ID", description = "an agent Worker")
  Optional<String> agentWorker;

  @Option(
      names = "--light",
      description =
          "light on this machine, for benchmarks: events written from a template (still hashed and"
              + " chained), a plain HTTP/1.1 socket per connection, answers checked for status and"
              + " cursor only, not against the spec; http hosts only")
  boolean light;

  @Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON")
  Optional<Path> json;

  LoadCommand(CliIo io) {
    this.io = io;
  }

  @Override
  public Integer call() throws Exception {
    if (connections < 1 || durationSeconds < 1 || warmupSeconds < 0) {
      throw new CliException("--connections and --duration must be at least 1, --warmup 0");
    }
    LoadPlan.Builder plan =
        LoadPlan.builder(baseUrl, token)
            .adminActor(admin)
            .connections(connections)
            .warmup(Duration.ofSeconds(warmupSeconds))
            .duration(Duration.ofSeconds(durationSeconds))
            .operation(operation)
            .progress(io.out());
    if (light) {
      plan.light();
    }
    if (actor.isPresent()) {
      if (worker.isEmpty() || agentWorker.isEmpty()) {
        throw new CliException("--actor needs --worker and --agent-worker");
      }
      plan.cast(new LoadCast(actor.get(), worker.get(), agentWorker.get()));
    }
    LoadPlan built;
    try {
      built = plan.build();
    } catch (IllegalArgumentException e) {
      throw new CliException(e.getMessage());
    }
    LoadResults results;
    try {
      results = LoadGenerator.run(built);
    } catch (LoadSetupException e) {
      throw new CliException(e.getMessage());
    }
    results.print(io.out());
    if (json.isPresent()) {
      Files.writeString(json.get(), results.json().toPrettyString());
    }
    return results.passed() ? 0 : 1;
  }
}
