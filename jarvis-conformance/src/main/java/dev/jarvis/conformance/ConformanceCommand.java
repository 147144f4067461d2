package dev.jarvis.conformance;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The command-line face of the suite, for {@code jarvis-cli.jar conformance}:
 *
 * <pre>
 * conformance --base-url URL --token T [--actor ID] [--policy ID] [--report-dir DIR] [--record-to DIR] [--recorded DIR]
 * conformance --base-url URL --run-prefix P --admin-actor ID --admin-token T --human-actor ID --human-token T
 *             --agent-actor ID --agent-token T [--outsider-actor ID --outsider-token T] [...]
 * conformance --recorded DIR [--report-dir DIR]
 * </pre>
 *
 * The second form is for a host that binds each credential to its Actors: one per role. Every
 * Worker and Actor the suite registers has an id starting with the run prefix ({@code
 * --run-prefix}, generated for the first form); the human's, agent's and outsider's Actor ids must
 * start with it. Either live form takes {@code --signer-actor ID --signer-key-id KID --signer-key
 * FILE} (FILE the base64 PKCS #8 Ed25519 private key): an Actor the host requires to sign, for the
 * {@code signatures} checks, {@code --policy-file FILE} (the JSON of the Policy the host holds for
 * the suite's WorkSessions, which the checks take their actions from; its id replaces {@code
 * --policy}) and {@code --foreign-policy ID} (a Policy the host holds that does not govern the
 * suite's human).
 *
 * <p>Exit codes: 0 every check passed, 1 a check failed, 2 usage error or host unreachable.
 */
public final class ConformanceCommand {

  /** Every check passed. */
  public static final int PASSED = 0;

  /** At least one check failed. */
  public static final int FAILED = 1;

  /** Bad arguments, or the host could not be reached. */
  public static final int USAGE = 2;

  static final String USAGE_TEXT =
      "usage: conformance --base-url URL --token T [--actor ID] [--policy ID] [--report-dir DIR] [--record-to DIR] [--recorded DIR]\n"
          + "       conformance --base-url URL --run-prefix P --admin-actor ID --admin-token T --human-actor ID --human-token T\n"
          + "                   --agent-actor ID --agent-token T [--outsider-actor ID --outsider-token T] [...]\n"
          + "       conformance --recorded DIR [--report-dir DIR]\n"
          + "       (live: [--policy-file FILE] the Policy the host holds, its id replacing --policy;\n"
          + "        [--foreign-policy ID] a Policy the host holds that does not govern the suite's human;\n"
          + "        [--signer-actor ID --signer-key-id KID --signer-key FILE] for the signatures checks)";

  private ConformanceCommand() {}

  /** Parses {@code args}, runs the suite, and returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, out, err, Clock.systemUTC(), () -> UUID.randomUUID().toString());
  }

  /**
   * Runs the suite with options already parsed (by {@link ConformanceOptions#parse} or a caller's
   * own command-line parser), and returns the exit code.
   */
  public static int run(ConformanceOptions options, PrintStream out, PrintStream err) {
    return run(options, out, err, Clock.systemUTC(), () -> UUID.randomUUID().toString());
  }

  /** As {@link #run(String[], PrintStream, PrintStream)}, with the suite's clock and ids. */
  static int run(
      String[] args, PrintStream out, PrintStream err, Clock clock, Supplier<String> ids) {
    ConformanceOptions options;
    try {
      options = ConformanceOptions.parse(args);
    } catch (IllegalArgumentException e) {
      return usage(e, err);
    }
    return run(options, out, err, clock, ids);
  }

  /** As {@link #run(ConformanceOptions, PrintStream, PrintStream)}, with the clock and ids. */
  static int run(
      ConformanceOptions options,
      PrintStream out,
      PrintStream err,
      Clock clock,
      Supplier<String> ids) {
    ConformanceConfig config;
    try {
      config = options.config(out, clock, ids);
    } catch (IllegalArgumentException e) {
      return usage(e, err);
    }
    try {
      return ConformanceSuite.run(config).passed() ? PASSED : FAILED;
    } catch (HostUnreachableException e) {
      err.println("conformance: " + e.getMessage());
      return USAGE;
    } catch (UncheckedIOException e) {
      err.println("conformance: " + e.getMessage() + ": " + e.getCause().getMessage());
      return USAGE;
    }
  }

  private static int usage(IllegalArgumentException e, PrintStream err) {
    err.println("conformance: " + e.getMessage());
    err.println(USAGE_TEXT);
    return USAGE;
  }
}
