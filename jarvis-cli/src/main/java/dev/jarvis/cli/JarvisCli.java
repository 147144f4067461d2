package dev.jarvis.cli;

import dev.jarvis.core.canonical.CanonicalizationException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code java -jar jarvis-cli.jar [SUBCOMMAND] [ARGS]}: the SDK's command-line tool, parsed by
 * picocli so that {@code --help}, {@code --version}, per-subcommand help and usage errors behave
 * the same everywhere.
 *
 * <p>Exit codes: 0 success, 1 the input was judged and found wanting (a check failed, or the host
 * refused what {@code review} sent or whom {@code watch} follows as: its {@code error_id} on
 * stderr; a chain {@code watch} follows broke), 2 the tool could not do its job (bad usage,
 * unreadable or invalid input). Errors are one line on stderr, never a stack trace. Without a
 * subcommand it lists the operations, as it always has.
 */
@Command(
    name = "jarvis-cli",
    mixinStandardHelpOptions = true,
    versionProvider = CliVersion.class,
    description = "The Jarvis Java SDK's command-line tool (protocol v0.1).",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:done",
      "1:judged and found wanting (a check failed, a chain broke, the host refused)",
      "2:could not do its job (bad usage, unreadable or invalid input)"
    })
public final class JarvisCli implements Runnable {

  /** Exit code: the tool could not do its job. */
  static final int USAGE = 2;

  private final CliIo io;

  JarvisCli(CliIo io) {
    this.io = io;
  }

  JarvisCli() {
    this(new CliIo(System.in, System.out, System.err));
  }

  public static void main(String[] args) {
    System.exit(new JarvisCli().run(args, System.in, System.out, System.err));
  }

  /** The default: no subcommand lists the operations. */
  @Override
  public void run() {
    new OperationsCommand(io).call();
  }

  int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    CliIo cliIo = new CliIo(in, out, err);
    int code = commandLine(cliIo).execute(args);
    out.flush();
    return code;
  }

  /** The command tree, every subcommand writing to {@code io}. */
  static CommandLine commandLine(CliIo io) {
    CommandLine cli =
        new CommandLine(new JarvisCli(io))
            .addSubcommand(new OperationsCommand(io))
            .addSubcommand(new DemoCommand(io))
            .addSubcommand(new ServeCommand(io))
            .addSubcommand(new ConformanceCliCommand(io))
            .addSubcommand(new LoadCommand(io))
            .addSubcommand(new AuditCommand(io))
            .addSubcommand(new ReviewCommand(io))
            .addSubcommand(new WatchCommand(io))
            .addSubcommand(new PolicyCommand(io))
            .addSubcommand(new InboxCommand(io))
            .addSubcommand(new ProtocolTools.Canonicalize(io))
            .addSubcommand(new ProtocolTools.HashEvent(io))
            .addSubcommand(new ProtocolTools.HashAction(io))
            .addSubcommand(new ProtocolTools.VerifyChain(io))
            .addSubcommand(new ProtocolTools.Validate(io));
    cli.setOut(new PrintWriter(io.out(), true, StandardCharsets.UTF_8));
    cli.setErr(new PrintWriter(io.err(), true, StandardCharsets.UTF_8));
    cli.setParameterExceptionHandler(JarvisCli::usageError);
    cli.setExecutionExceptionHandler(JarvisCli::failure);
    return cli;
  }

  /** A usage error: one line naming it and where help is, exit 2. */
  private static int usageError(CommandLine.ParameterException e, String[] args) {
    CommandLine command = e.getCommandLine();
    command
        .getErr()
        .println(
            command.getCommandSpec().qualifiedName()
                + ": "
                + e.getMessage()
                + " (see "
                + command.getCommandSpec().qualifiedName()
                + " --help)");
    return USAGE;
  }

  /** A failure while running: one line, never a stack trace, exit 2. */
  private static int failure(
      Exception e, CommandLine command, CommandLine.ParseResult parseResult) {
    String name = command.getCommandSpec().qualifiedName();
    if (e instanceof CanonicalizationException refused) {
      command
          .getErr()
          .println(name + ": " + CliException.refused(refused.toViolation("json")).getMessage());
    } else if (e instanceof CliException) {
      command.getErr().println(name + ": " + e.getMessage());
    } else {
      command.getErr().println(name + ": " + e.getClass().getSimpleName() + ": " + e.getMessage());
    }
    return USAGE;
  }
}
