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
 * value from its own options with {@link #builder()}). {@link #config} checks how they go together
 * and makes the suite's {@link ConformanceConfig}. A final class rather than a record, so that a
 * new option is a new builder method and never a new constructor a caller must move to.
 */
public final class ConformanceOptions {

  /** The roles of per-role credentials, each given by --ROLE-actor and --ROLE-token. */
  public static final List<String> ROLES = List.of("admin", "human", "agent", "outsider");

  private final Optional<String> baseUrl;
  private final Optional<String> token;
  private final Optional<String> actor;
  private final Optional<String> runPrefix;
  private final Optional<String> policy;
  private final Optional<Path> reportDir;
  private final Optional<Path> recordTo;
  private final Optional<Path> recorded;
  private final Map<String, String> roleActors;
  private final Map<String, String> roleTokens;
  private final Optional<String> signerActor;
  private final Optional<String> signerKeyId;
  private final Optional<Path> signerKey;
  private final Optional<Path> policyFile;
  private final Optional<String> foreignPolicy;

  private ConformanceOptions(Builder b) {
    this.baseUrl = b.baseUrl;
    this.token = b.token;
    this.actor = b.actor;
    this.runPrefix = b.runPrefix;
    this.policy = b.policy;
    this.reportDir = b.reportDir;
    this.recordTo = b.recordTo;
    this.recorded = b.recorded;
    this.roleActors = Map.copyOf(b.roleActors);
    this.roleTokens = Map.copyOf(b.roleTokens);
    this.signerActor = b.signerActor;
    this.signerKeyId = b.signerKeyId;
    this.signerKey = b.signerKey;
    this.policyFile = b.policyFile;
    this.foreignPolicy = b.foreignPolicy;
    for (String role : union(roleActors, roleTokens)) {
      if (!ROLES.contains(role)) {
        throw new IllegalArgumentException("no role " + role + "; the roles are " + ROLES);
      }
    }
  }

  /** A builder with no option given. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding every option of this value, to change some of them. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.baseUrl = baseUrl;
    b.token = token;
    b.actor = actor;
    b.runPrefix = runPrefix;
    b.policy = policy;
    b.reportDir = reportDir;
    b.recordTo = recordTo;
    b.recorded = recorded;
    b.roleActors.putAll(roleActors);
    b.roleTokens.putAll(roleTokens);
    b.signerActor = signerActor;
    b.signerKeyId = signerKeyId;
    b.signerKey = signerKey;
    b.policyFile = policyFile;
    b.foreignPolicy = foreignPolicy;
    return b;
  }

  /** {@code --base-url}. */
  public Optional<String> baseUrl() {
    return baseUrl;
  }

  /** {@code --token}. */
  public Optional<String> token() {
    return token;
  }

  /** {@code --actor}: the admin Actor under the one token. */
  public Optional<String> actor() {
    return actor;
  }

  /** {@code --run-prefix}: the start of every Worker and Actor id the suite registers. */
  public Optional<String> runPrefix() {
    return runPrefix;
  }

  /** {@code --policy}. */
  public Optional<String> policy() {
    return policy;
  }

  /** {@code --report-dir}. */
  public Optional<Path> reportDir() {
    return reportDir;
  }

  /** {@code --record-to}. */
  public Optional<Path> recordTo() {
    return recordTo;
  }

  /** {@code --recorded}. */
  public Optional<Path> recorded() {
    return recorded;
  }

  /**
   * {@code --ROLE-actor} by role ({@code admin}, {@code human}, {@code agent}, {@code outsider}).
   */
  public Map<String, String> roleActors() {
    return roleActors;
  }

  /** {@code --ROLE-token} by role. */
  public Map<String, String> roleTokens() {
    return roleTokens;
  }

  /** {@code --signer-actor}: an Actor the host requires to sign its events. */
  public Optional<String> signerActor() {
    return signerActor;
  }

  /** {@code --signer-key-id}: the id of its key. */
  public Optional<String> signerKeyId() {
    return signerKeyId;
  }

  /** {@code --signer-key}: a file holding the key (base64 PKCS #8 Ed25519). */
  public Optional<Path> signerKey() {
    return signerKey;
  }

  /**
   * {@code --policy-file}: the JSON of the Policy the host holds for the suite's WorkSessions; its
   * id is the one the suite names.
   */
  public Optional<Path> policyFile() {
    return policyFile;
  }

  /**
   * {@code --foreign-policy}: a Policy the host holds that neither is owned by nor assigned to the
   * suite's human Worker.
   */
  public Optional<String> foreignPolicy() {
    return foreignPolicy;
  }

  /** Builds a {@link ConformanceOptions}; an option not given is empty. */
  public static final class Builder {
    private Optional<String> baseUrl = Optional.empty();
    private Optional<String> token = Optional.empty();
    private Optional<String> actor = Optional.empty();
    private Optional<String> runPrefix = Optional.empty();
    private Optional<String> policy = Optional.empty();
    private Optional<Path> reportDir = Optional.empty();
    private Optional<Path> recordTo = Optional.empty();
    private Optional<Path> recorded = Optional.empty();
    private final Map<String, String> roleActors = new HashMap<>();
    private final Map<String, String> roleTokens = new HashMap<>();
    private Optional<String> signerActor = Optional.empty();
    private Optional<String> signerKeyId = Optional.empty();
    private Optional<Path> signerKey = Optional.empty();
    private Optional<Path> policyFile = Optional.empty();
    private Optional<String> foreignPolicy = Optional.empty();

    private Builder() {}

    /** {@code --base-url}. */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = Optional.of(baseUrl);
      return this;
    }

    /** {@code --token}. */
    public Builder token(String token) {
      this.token = Optional.of(token);
      return this;
    }

    /** {@code --actor}: the admin Actor under the one token. */
    public Builder actor(String actor) {
      this.actor = Optional.of(actor);
      return this;
    }

    /** {@code --run-prefix}. */
    public Builder runPrefix(String runPrefix) {
      this.runPrefix = Optional.of(runPrefix);
      return this;
    }

    /** {@code --policy}. */
    public Builder policy(String policy) {
      this.policy = Optional.of(policy);
      return this;
    }

    /** {@code --report-dir}. */
    public Builder reportDir(Path reportDir) {
      this.reportDir = Optional.of(reportDir);
      return this;
    }

    /** {@code --record-to}. */
    public Builder recordTo(Path recordTo) {
      this.recordTo = Optional.of(recordTo);
      return this;
    }

    /** {@code --recorded}. */
    public Builder recorded(Path recorded) {
      this.recorded = Optional.of(recorded);
      return this;
    }

    /** {@code --ROLE-actor}: the Actor of one role ({@link ConformanceOptions#ROLES}). */
    public Builder roleActor(String role, String actorId) {
      this.roleActors.put(Objects.requireNonNull(role, "role"), actorId);
      return this;
    }

    /** {@code --ROLE-token}: the token of one role ({@link ConformanceOptions#ROLES}). */
    public Builder roleToken(String role, String token) {
      this.roleTokens.put(Objects.requireNonNull(role, "role"), token);
      return this;
    }

    /** {@code --signer-actor}. */
    public Builder signerActor(String signerActor) {
      this.signerActor = Optional.of(signerActor);
      return this;
    }

    /** {@code --signer-key-id}. */
    public Builder signerKeyId(String signerKeyId) {
      this.signerKeyId = Optional.of(signerKeyId);
      return this;
    }

    /** {@code --signer-key}. */
    public Builder signerKey(Path signerKey) {
      this.signerKey = Optional.of(signerKey);
      return this;
    }

    /** {@code --policy-file}. */
    public Builder policyFile(Path policyFile) {
      this.policyFile = Optional.of(policyFile);
      return this;
    }

    /** {@code --foreign-policy}. */
    public Builder foreignPolicy(String foreignPolicy) {
      this.foreignPolicy = Optional.of(foreignPolicy);
      return this;
    }

    /**
     * The options as given; how they go together is checked by {@link ConformanceOptions#config}.
     *
     * @throws IllegalArgumentException on a role not among {@link ConformanceOptions#ROLES}
     * @throws NullPointerException on a role's Actor or token given as null
     */
    public ConformanceOptions build() {
      return new ConformanceOptions(this);
    }
  }

  /**
   * Parses {@code --option value} pairs (the options above).
   *
   * @throws IllegalArgumentException on an unknown option or one without a value
   */
  public static ConformanceOptions parse(String[] args) {
    Builder options = builder();
    List<String> rest = new ArrayList<>(List.of(args));
    while (!rest.isEmpty()) {
      String option = rest.remove(0);
      if (rest.isEmpty() || rest.get(0).startsWith("--")) {
        throw new IllegalArgumentException(option + " needs a value");
      }
      String value = rest.remove(0);
      switch (option) {
        case "--base-url" -> options.baseUrl(value);
        case "--token" -> options.token(value);
        case "--actor" -> options.actor(value);
        case "--policy" -> options.policy(value);
        case "--report-dir" -> options.reportDir(Path.of(value));
        case "--recorded" -> options.recorded(Path.of(value));
        case "--record-to" -> options.recordTo(Path.of(value));
        case "--run-prefix" -> options.runPrefix(value);
        case "--signer-actor" -> options.signerActor(value);
        case "--signer-key-id" -> options.signerKeyId(value);
        case "--signer-key" -> options.signerKey(Path.of(value));
        case "--policy-file" -> options.policyFile(Path.of(value));
        case "--foreign-policy" -> options.foreignPolicy(value);
        default -> {
          Optional<String> role =
              ROLES.stream().filter(r -> option.startsWith("--" + r + "-")).findFirst();
          if (role.isPresent() && option.equals("--" + role.get() + "-actor")) {
            options.roleActor(role.get(), value);
          } else if (role.isPresent() && option.equals("--" + role.get() + "-token")) {
            options.roleToken(role.get(), value);
          } else {
            throw new IllegalArgumentException("unknown option " + option);
          }
        }
      }
    }
    return options.build();
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

  /** Equal when every option is: a caller's parser and {@link #parse} build equal values. */
  @Override
  public boolean equals(Object o) {
    return o instanceof ConformanceOptions other
        && baseUrl.equals(other.baseUrl)
        && token.equals(other.token)
        && actor.equals(other.actor)
        && runPrefix.equals(other.runPrefix)
        && policy.equals(other.policy)
        && reportDir.equals(other.reportDir)
        && recordTo.equals(other.recordTo)
        && recorded.equals(other.recorded)
        && roleActors.equals(other.roleActors)
        && roleTokens.equals(other.roleTokens)
        && signerActor.equals(other.signerActor)
        && signerKeyId.equals(other.signerKeyId)
        && signerKey.equals(other.signerKey)
        && policyFile.equals(other.policyFile)
        && foreignPolicy.equals(other.foreignPolicy);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        baseUrl,
        token,
        actor,
        runPrefix,
        policy,
        reportDir,
        recordTo,
        recorded,
        roleActors,
        roleTokens,
        signerActor,
        signerKeyId,
        signerKey,
        policyFile,
        foreignPolicy);
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
