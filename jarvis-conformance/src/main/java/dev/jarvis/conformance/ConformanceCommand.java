package dev.jarvis.conformance;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The command-line face of the suite, for {@code jarvis-cli.jar conformance}:
 *
 * <pre>
 * conformance --base-url URL --token T [--actor ID] [--policy ID] [--report-dir DIR] [--record-to DIR] [--recorded DIR]
 * conformance --base-url URL --admin-actor ID --admin-token T --human-actor ID --human-token T
 *             --agent-actor ID --agent-token T [--outsider-actor ID --outsider-token T] [...]
 * conformance --recorded DIR [--report-dir DIR]
 * </pre>
 *
 * The second form is for a host that binds each credential to its Actors: one per role. Either live
 * form takes {@code --signer-actor ID --signer-key-id KID --signer-key FILE} (FILE the base64 PKCS
 * #8 Ed25519 private key): an Actor the host requires to sign, for the {@code signatures} checks.
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
          + "       conformance --base-url URL --admin-actor ID --admin-token T --human-actor ID --human-token T\n"
          + "                   --agent-actor ID --agent-token T [--outsider-actor ID --outsider-token T] [...]\n"
          + "       conformance --recorded DIR [--report-dir DIR]\n"
          + "       (live: [--signer-actor ID --signer-key-id KID --signer-key FILE] for the signatures checks)";

  /** The roles of per-role credentials, each given by --ROLE-actor and --ROLE-token. */
  private static final List<String> ROLES = List.of("admin", "human", "agent", "outsider");

  private ConformanceCommand() {}

  /** Parses {@code args}, runs the suite, and returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, out, err, Clock.systemUTC(), () -> UUID.randomUUID().toString());
  }

  /** As {@link #run(String[], PrintStream, PrintStream)}, with the suite's clock and ids. */
  static int run(
      String[] args, PrintStream out, PrintStream err, Clock clock, Supplier<String> ids) {
    ConformanceConfig config;
    try {
      config = parse(args, out, clock, ids);
    } catch (IllegalArgumentException e) {
      err.println("conformance: " + e.getMessage());
      err.println(USAGE_TEXT);
      return USAGE;
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

  private static ConformanceConfig parse(
      String[] args, PrintStream out, Clock clock, Supplier<String> ids) {
    String baseUrl = null;
    String token = null;
    String actor = null;
    String policy = null;
    String reportDir = null;
    String recorded = null;
    String recordTo = null;
    java.util.Map<String, String> roleValues = new java.util.HashMap<>();
    java.util.Map<String, String> signerValues = new java.util.HashMap<>();
    List<String> rest = new ArrayList<>(List.of(args));
    while (!rest.isEmpty()) {
      String option = rest.remove(0);
      if (rest.isEmpty() || rest.get(0).startsWith("--")) {
        throw new IllegalArgumentException(option + " needs a value");
      }
      String value = rest.remove(0);
      switch (option) {
        case "--base-url" -> baseUrl = value;
        case "--token" -> token = value;
        case "--actor" -> actor = value;
        case "--policy" -> policy = value;
        case "--report-dir" -> reportDir = value;
        case "--recorded" -> recorded = value;
        case "--record-to" -> recordTo = value;
        case "--signer-actor", "--signer-key-id", "--signer-key" -> signerValues.put(option, value);
        default -> {
          if (!isRoleOption(option)) {
            throw new IllegalArgumentException("unknown option " + option);
          }
          roleValues.put(option, value);
        }
      }
    }
    if (baseUrl == null && recorded == null) {
      throw new IllegalArgumentException("give --base-url and --token, or --recorded");
    }
    if (baseUrl == null && recordTo != null) {
      throw new IllegalArgumentException("--record-to needs --base-url");
    }
    Optional<RoleCredentials> roles = roles(roleValues);
    if (roles.isPresent() && (token != null || actor != null)) {
      throw new IllegalArgumentException(
          "per-role credentials replace --token and --actor: give one or the other");
    }
    if (roles.isPresent() && baseUrl == null) {
      throw new IllegalArgumentException("per-role credentials need --base-url");
    }
    if (baseUrl != null && token == null && roles.isEmpty()) {
      throw new IllegalArgumentException(
          "--base-url needs --token, or --admin/--human/--agent-actor and -token");
    }
    ConformanceConfig.Builder builder;
    if (baseUrl != null) {
      URI url = URI.create(baseUrl);
      if (url.getScheme() == null || !url.getScheme().matches("https?") || url.getHost() == null) {
        throw new IllegalArgumentException("--base-url must be an http(s) URL: " + baseUrl);
      }
      builder =
          roles.isPresent()
              ? ConformanceConfig.live(url, roles.get())
              : ConformanceConfig.live(url, token);
      if (recorded != null) {
        builder.recordedDir(Path.of(recorded));
      }
      if (recordTo != null) {
        builder.recordTo(Path.of(recordTo));
      }
    } else {
      builder = ConformanceConfig.recorded(Path.of(recorded));
    }
    if (actor != null) {
      builder.registrarActorId(actor);
    }
    if (policy != null) {
      builder.policyId(policy);
    }
    if (reportDir != null) {
      builder.reportDir(Path.of(reportDir));
    }
    signer(signerValues, baseUrl != null).ifPresent(builder::requiredSigner);
    return builder.progress(out).clock(clock).ids(ids).build();
  }

  /** The required signer from --signer-actor, --signer-key-id and --signer-key: all or none. */
  private static Optional<RequiredSigner> signer(
      java.util.Map<String, String> values, boolean live) {
    if (values.isEmpty()) {
      return Optional.empty();
    }
    if (values.size() != 3 || !live) {
      throw new IllegalArgumentException(
          "--signer-actor, --signer-key-id and --signer-key go together, with --base-url");
    }
    String file = values.get("--signer-key");
    String pkcs8;
    try {
      pkcs8 = java.nio.file.Files.readString(Path.of(file)).strip();
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("cannot read --signer-key " + file);
    }
    return Optional.of(
        new RequiredSigner(
            values.get("--signer-actor"),
            dev.jarvis.core.signature.SigningKey.fromPkcs8(values.get("--signer-key-id"), pkcs8)));
  }

  private static boolean isRoleOption(String option) {
    return ROLES.stream()
        .anyMatch(r -> option.equals("--" + r + "-actor") || option.equals("--" + r + "-token"));
  }

  /** Per-role credentials from --ROLE-actor/--ROLE-token: all of admin, human, agent, or none. */
  private static Optional<RoleCredentials> roles(java.util.Map<String, String> values) {
    if (values.isEmpty()) {
      return Optional.empty();
    }
    java.util.Map<String, ActorCredential> given = new java.util.HashMap<>();
    for (String role : ROLES) {
      String actorId = values.get("--" + role + "-actor");
      String token = values.get("--" + role + "-token");
      if ((actorId == null) != (token == null)) {
        throw new IllegalArgumentException(
            "--" + role + "-actor and --" + role + "-token go together");
      }
      if (actorId != null) {
        given.put(role, new ActorCredential(actorId, token));
      }
    }
    for (String role : List.of("admin", "human", "agent")) {
      if (!given.containsKey(role)) {
        throw new IllegalArgumentException(
            "per-role credentials need --" + role + "-actor and --" + role + "-token");
      }
    }
    return Optional.of(
        new RoleCredentials(
            given.get("admin"),
            given.get("human"),
            given.get("agent"),
            Optional.ofNullable(given.get("outsider"))));
  }
}
