package dev.jarvis.conformance;

import dev.jarvis.core.signature.SigningKey;
import dev.jarvis.model.Policy;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The options of {@code conformance} as given, parsed once: by {@link #parse(String[])} from
 * arguments, or by a command-line parser of the caller's (the CLI's picocli command builds this
 * value from its own options). {@link #config} checks how they go together and makes the suite's
 * {@link ConformanceConfig}.
 *
 * @param baseUrl {@code --base-url}
 * @param token {@code --token}
 * @param actor {@code --actor}: the admin Actor under the one token
 * @param runPrefix {@code --run-prefix}: the start of every Worker and Actor id the suite registers
 * @param policy {@code --policy}
 * @param reportDir {@code --report-dir}
 * @param recordTo {@code --record-to}
 * @param recorded {@code --recorded}
 * @param roleActors {@code --ROLE-actor} by role ({@code admin}, {@code human}, {@code agent},
 *     {@code outsider})
 * @param roleTokens {@code --ROLE-token} by role
 * @param signerActor {@code --signer-actor}: an Actor the host requires to sign its events
 * @param signerKeyId {@code --signer-key-id}: the id of its key
 * @param signerKey {@code --signer-key}: a file holding the key (base64 PKCS #8 Ed25519)
 * @param policyFile {@code --policy-file}: the JSON of the Policy the host holds for the suite's
 *     WorkSessions; its id is the one the suite names
 * @param foreignPolicy {@code --foreign-policy}: a Policy the host holds that neither is owned by
 *     nor assigned to the suite's human Worker
 */
public record ConformanceOptions(
    Optional<String> baseUrl,
    Optional<String> token,
    Optional<String> actor,
    Optional<String> runPrefix,
    Optional<String> policy,
    Optional<Path> reportDir,
    Optional<Path> recordTo,
    Optional<Path> recorded,
    Map<String, String> roleActors,
    Map<String, String> roleTokens,
    Optional<String> signerActor,
    Optional<String> signerKeyId,
    Optional<Path> signerKey,
    Optional<Path> policyFile,
    Optional<String> foreignPolicy) {

  /** The roles of per-role credentials, each given by --ROLE-actor and --ROLE-token. */
  public static final List<String> ROLES = List.of("admin", "human", "agent", "outsider");

  public ConformanceOptions {
    Objects.requireNonNull(baseUrl, "baseUrl");
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(actor, "actor");
    Objects.requireNonNull(runPrefix, "runPrefix");
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(reportDir, "reportDir");
    Objects.requireNonNull(recordTo, "recordTo");
    Objects.requireNonNull(recorded, "recorded");
    Objects.requireNonNull(signerActor, "signerActor");
    Objects.requireNonNull(signerKeyId, "signerKeyId");
    Objects.requireNonNull(signerKey, "signerKey");
    Objects.requireNonNull(policyFile, "policyFile");
    Objects.requireNonNull(foreignPolicy, "foreignPolicy");
    roleActors = Map.copyOf(roleActors);
    roleTokens = Map.copyOf(roleTokens);
    for (String role : union(roleActors, roleTokens)) {
      if (!ROLES.contains(role)) {
        throw new IllegalArgumentException("no role " + role + "; the roles are " + ROLES);
      }
    }
  }

  /**
   * Parses {@code --option value} pairs (the options above).
   *
   * @throws IllegalArgumentException on an unknown option or one without a value
   */
  public static ConformanceOptions parse(String[] args) {
    Map<String, String> values = new HashMap<>();
    Map<String, String> roleActors = new HashMap<>();
    Map<String, String> roleTokens = new HashMap<>();
    List<String> rest = new ArrayList<>(List.of(args));
    while (!rest.isEmpty()) {
      String option = rest.remove(0);
      if (rest.isEmpty() || rest.get(0).startsWith("--")) {
        throw new IllegalArgumentException(option + " needs a value");
      }
      String value = rest.remove(0);
      switch (option) {
        case "--base-url",
            "--token",
            "--actor",
            "--policy",
            "--report-dir",
            "--recorded",
            "--record-to",
            "--run-prefix",
            "--signer-actor",
            "--signer-key-id",
            "--signer-key",
            "--policy-file",
            "--foreign-policy" ->
            values.put(option, value);
        default -> {
          Optional<String> role =
              ROLES.stream().filter(r -> option.startsWith("--" + r + "-")).findFirst();
          if (role.isPresent() && option.equals("--" + role.get() + "-actor")) {
            roleActors.put(role.get(), value);
          } else if (role.isPresent() && option.equals("--" + role.get() + "-token")) {
            roleTokens.put(role.get(), value);
          } else {
            throw new IllegalArgumentException("unknown option " + option);
          }
        }
      }
    }
    return new ConformanceOptions(
        Optional.ofNullable(values.get("--base-url")),
        Optional.ofNullable(values.get("--token")),
        Optional.ofNullable(values.get("--actor")),
        Optional.ofNullable(values.get("--run-prefix")),
        Optional.ofNullable(values.get("--policy")),
        Optional.ofNullable(values.get("--report-dir")).map(Path::of),
        Optional.ofNullable(values.get("--record-to")).map(Path::of),
        Optional.ofNullable(values.get("--recorded")).map(Path::of),
        roleActors,
        roleTokens,
        Optional.ofNullable(values.get("--signer-actor")),
        Optional.ofNullable(values.get("--signer-key-id")),
        Optional.ofNullable(values.get("--signer-key")).map(Path::of),
        Optional.ofNullable(values.get("--policy-file")).map(Path::of),
        Optional.ofNullable(values.get("--foreign-policy")));
  }

  /**
   * The suite's configuration from these options.
   *
   * @throws IllegalArgumentException when the options do not go together, with what to change
   */
  public ConformanceConfig config(PrintStream progress, Clock clock, Supplier<String> ids) {
    if (baseUrl.isEmpty() && recorded.isEmpty()) {
      throw new IllegalArgumentException("give --base-url and --token, or --recorded");
    }
    if (baseUrl.isEmpty() && recordTo.isPresent()) {
      throw new IllegalArgumentException("--record-to needs --base-url");
    }
    Optional<RoleCredentials> roles = roles();
    if (roles.isPresent() && (token.isPresent() || actor.isPresent())) {
      throw new IllegalArgumentException(
          "per-role credentials replace --token and --actor: give one or the other");
    }
    if (roles.isPresent() && baseUrl.isEmpty()) {
      throw new IllegalArgumentException("per-role credentials need --base-url");
    }
    if (baseUrl.isPresent() && token.isEmpty() && roles.isEmpty()) {
      throw new IllegalArgumentException(
          "--base-url needs --token, or --admin/--human/--agent-actor and -token");
    }
    ConformanceConfig.Builder builder;
    if (baseUrl.isPresent()) {
      URI url = URI.create(baseUrl.get());
      if (url.getScheme() == null || !url.getScheme().matches("https?") || url.getHost() == null) {
        throw new IllegalArgumentException("--base-url must be an http(s) URL: " + baseUrl.get());
      }
      builder =
          roles.isPresent()
              ? ConformanceConfig.live(url, roles.get())
              : ConformanceConfig.live(url, token.get());
      recorded.ifPresent(builder::recordedDir);
      recordTo.ifPresent(builder::recordTo);
    } else {
      builder = ConformanceConfig.recorded(recorded.get());
    }
    actor.ifPresent(builder::registrarActorId);
    policy.ifPresent(builder::policyId);
    if ((policyFile.isPresent() || foreignPolicy.isPresent()) && baseUrl.isEmpty()) {
      throw new IllegalArgumentException("--policy-file and --foreign-policy need --base-url");
    }
    if (policyFile.isPresent()) {
      Policy given = PolicyFile.read(policyFile.get());
      if (policy.filter(id -> !id.equals(given.getId())).isPresent()) {
        throw new IllegalArgumentException(
            "--policy "
                + policy.get()
                + " and --policy-file "
                + policyFile.get()
                + " (Policy "
                + given.getId()
                + ") name two Policies: give the file alone");
      }
      builder.policy(given);
    }
    foreignPolicy.ifPresent(builder::foreignPolicyId);
    runPrefix.ifPresent(builder::runPrefix);
    reportDir.ifPresent(builder::reportDir);
    signer().ifPresent(builder::requiredSigner);
    return builder.progress(progress).clock(clock).ids(ids).build();
  }

  /** Per-role credentials from --ROLE-actor/--ROLE-token: all of admin, human, agent, or none. */
  private Optional<RoleCredentials> roles() {
    if (roleActors.isEmpty() && roleTokens.isEmpty()) {
      return Optional.empty();
    }
    Map<String, ActorCredential> given = new HashMap<>();
    for (String role : ROLES) {
      String actorId = roleActors.get(role);
      String roleToken = roleTokens.get(role);
      if ((actorId == null) != (roleToken == null)) {
        throw new IllegalArgumentException(
            "--" + role + "-actor and --" + role + "-token go together");
      }
      if (actorId != null) {
        given.put(role, new ActorCredential(actorId, roleToken));
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

  /** The required signer from --signer-actor, --signer-key-id and --signer-key: all or none. */
  private Optional<RequiredSigner> signer() {
    int given =
        (signerActor.isPresent() ? 1 : 0)
            + (signerKeyId.isPresent() ? 1 : 0)
            + (signerKey.isPresent() ? 1 : 0);
    if (given == 0) {
      return Optional.empty();
    }
    if (given != 3 || baseUrl.isEmpty()) {
      throw new IllegalArgumentException(
          "--signer-actor, --signer-key-id and --signer-key go together, with --base-url");
    }
    String pkcs8;
    try {
      pkcs8 = Files.readString(signerKey.get()).strip();
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read --signer-key " + signerKey.get());
    }
    return Optional.of(
        new RequiredSigner(signerActor.get(), SigningKey.fromPkcs8(signerKeyId.get(), pkcs8)));
  }

  private static List<String> union(Map<String, String> a, Map<String, String> b) {
    List<String> keys = new ArrayList<>(a.keySet());
    keys.addAll(b.keySet());
    return keys;
  }

  @Override
  public String toString() {
    // Never the tokens.
    return "ConformanceOptions[baseUrl="
        + baseUrl
        + ", actor="
        + actor
        + ", roles="
        + roleActors
        + ", recorded="
        + recorded
        + ", policyFile="
        + policyFile
        + ", foreignPolicy="
        + foreignPolicy
        + "]";
  }
}
