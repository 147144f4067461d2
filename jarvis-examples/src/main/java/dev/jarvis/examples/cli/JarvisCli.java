package dev.jarvis.examples.cli;

import dev.jarvis.host.ServerOperation;
import dev.jarvis.host.ServerOperations;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code java -jar jarvis-cli.jar [SUBCOMMAND] [ARGS]}: the SDK's command-line tool.
 *
 * <p>Exit codes: 0 success, 1 the input was judged and found wanting (a check failed), 2 the tool
 * could not do its job (bad usage, unreadable input). Errors are one line on stderr, never a stack
 * trace.
 */
public final class JarvisCli {

  /** One subcommand: runs with its arguments and returns the exit code. */
  interface Command {
    int run(String[] args, PrintStream out, PrintStream err) throws Exception;
  }

  private final Map<String, Command> commands = new LinkedHashMap<>();

  JarvisCli() {
    commands.put("operations", (args, out, err) -> operations(out));
  }

  public static void main(String[] args) {
    System.exit(new JarvisCli().run(args, System.out, System.err));
  }

  int run(String[] args, PrintStream out, PrintStream err) {
    String name = args.length == 0 ? "operations" : args[0];
    Command command = commands.get(name);
    if (command == null) {
      err.println("jarvis-cli: unknown subcommand '" + name + "'; known: " + commands.keySet());
      return 2;
    }
    try {
      return command.run(Arrays.copyOfRange(args, Math.min(1, args.length), args.length), out, err);
    } catch (Exception e) {
      err.println("jarvis-cli " + name + ": " + e.getMessage());
      return 2;
    }
  }

  private static int operations(PrintStream out) {
    out.println("Jarvis protocol v0.1 operations (from the generated server interfaces):");
    for (ServerOperation op : ServerOperations.all()) {
      out.printf("  %-4s %-50s %s%n", op.httpMethod(), op.path(), op.operationId());
    }
    out.printf("%d operations%n", ServerOperations.all().size());
    return 0;
  }
}
