package dev.jarvis.cli;

import dev.jarvis.host.jaxrs.ServerOperation;
import dev.jarvis.host.jaxrs.ServerOperations;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code operations}: the spec's operations, read from the generated server interfaces. */
@Command(
    name = "operations",
    mixinStandardHelpOptions = true,
    description = "Lists the 15 operations: method, path, operationId (the default subcommand).")
final class OperationsCommand implements Callable<Integer> {

  private final CliIo io;

  OperationsCommand(CliIo io) {
    this.io = io;
  }

  @Override
  public Integer call() {
    io.out().println("Jarvis protocol v0.1 operations (from the generated server interfaces):");
    for (ServerOperation op : ServerOperations.all()) {
      io.out().printf("  %-4s %-50s %s%n", op.httpMethod(), op.path(), op.operationId());
    }
    io.out().printf("%d operations%n", ServerOperations.all().size());
    return 0;
  }
}
