package dev.jarvis.cli;

import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.ProtocolOperations;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code operations}: the spec's operations, read from the core's {@link ProtocolOperations} (the
 * spec itself), the same list the host kit routes and the client sends by.
 */
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
    // Ordered by path then method, as this list has always been printed.
    List<ProtocolOperation> operations =
        ProtocolOperations.all().stream()
            .sorted(
                Comparator.comparing(ProtocolOperation::path)
                    .thenComparing(ProtocolOperation::httpMethod))
            .toList();
    io.out().println("Jarvis protocol v0.1 operations (from the spec):");
    for (ProtocolOperation op : operations) {
      io.out().printf("  %-4s %-50s %s%n", op.httpMethod(), op.path(), op.operationId());
    }
    io.out().printf("%d operations%n", operations.size());
    return 0;
  }
}
