package dev.jarvis.conformance;

import dev.jarvis.model.Policy;
import dev.jarvis.samples.SampleRecords;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * What the conformance suite runs against and where it reports. Build with {@link #live(URI,
 * String)}, {@link #live(URI, RoleCredentials)} or {@link #recorded(Path)}. A final class rather
 * than a record, so that a new setting is a new builder method and never a new constructor.
 */
public final class ConformanceConfig {

  /**
   * The Actor the suite registers its Workers and Actors under, unless told otherwise: the
   * reference host's default admin Actor.
   */
  public static final String DEFAULT_REGISTRAR_ACTOR = "host-admin";

  /** The Policy the suite names unless told otherwise: the spec's example Policy. */
  public static final String DEFAULT_POLICY = SampleRecords.POLICY_ID;

  /** How a run prefix begins unless given: the run's Workers and Actors say whose they are. */
  public static final String RUN_PREFIX_START = "conformance-";

  /** A run prefix: the start of a JarvisId, short enough to leave room for the rest. */
  private static final Pattern RUN_PREFIX = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,63}");

  private final Optional<URI> baseUrl;
  private final String token;
  private final String registrarActorId;
  private final String policyId;
  private final Optional<Path> recordedDir;
  private final Optional<Path> reportDir;
  private final Optional<Path> recordTo;
  private final Supplier<String> ids;
  private final Clock clock;
  private final Duration timeout;
  private final PrintStream progress;
  private final Optional<RoleCredentials> roles;
  private final String runPrefix;
  private final Optional<RequiredSigner> requiredSigner;
  private final Optional<Policy> policy;
  private final Optional<String> foreignPolicyId;

  private ConformanceConfig(Builder b) {
    this.baseUrl = b.baseUrl;
    this.token = b.token;
    this.recordedDir = b.recordedDir;
    this.reportDir = b.reportDir;
    this.recordTo = b.recordTo;
    this.ids = b.ids;
    this.clock = b.clock;
    this.timeout = b.timeout;
    this.progress = b.progress;
    this.roles = b.roles;
    this.runPrefix = b.runPrefix.orElseGet(() -> defaultRunPrefix(b.ids));
    this.requiredSigner = b.requiredSigner;
    this.policy = b.policy;
    this.policyId = b.policyId;
    this.foreignPolicyId = b.foreignPolicyId;
    if (!RUN_PREFIX.matcher(runPrefix).matches()) {
      throw new IllegalArgumentException(
          "the run prefix must be 1 to 64 of A-Z a-z 0-9 . _ : - and start with a letter or digit");
    }
    roles.ifPresent(r -> r.requireUnder(runPrefix));
    if (policy.isPresent() && !policyId.equals(policy.get().getId())) {
      throw new IllegalArgumentException(
          "the Policy given is " + policy.get().getId() + ", the suite is to name " + policyId);
    }
    if (foreignPolicyId.filter(policyId::equals).isPresent()) {
      throw new IllegalArgumentException(
          "the foreign Policy must be another than the suite's own, " + policyId);
    }
    if (baseUrl.isEmpty() && recordedDir.isEmpty()) {
      throw new IllegalArgumentException(
          "give a live host, a directory of recorded exchanges, or both");
    }
    // With per-role credentials the admin's Actor is the registrar: one source of truth.
    this.registrarActorId = roles.map(r -> r.admin().actorId()).orElse(b.registrarActorId);
  }

  /**
   * The live host, if any (e.g. {@code http://127.0.0.1:8080}); without one only recorded exchanges
   * are judged.
   */
  public Optional<URI> baseUrl() {
    return baseUrl;
  }

  /** Sent as {@code Authorization: Bearer <token>} to the live host. */
  public String token() {
    return token;
  }

  /**
   * The {@code Jarvis-Actor-Id} under which the suite registers its own Workers and Actors; the
   * host must let this Actor register them. With per-role credentials, the admin role's Actor.
   */
  public String registrarActorId() {
    return registrarActorId;
  }

  /**
   * The Policy the suite's WorkSessions and PolicyDecisions name; the host must hold it (the spec
   * has no operation to create one) and let it govern the suite's human Worker, which is new in
   * each run: assigned to every human ({@code serve --assign-policy POLICY=*}), or a host in demo
   * mode.
   */
  public String policyId() {
    return policyId;
  }

  /** A directory of recorded exchanges to judge, if any. */
  public Optional<Path> recordedDir() {
    return recordedDir;
  }

  /** Where the JUnit XML and Markdown reports go, if anywhere. */
  public Optional<Path> reportDir() {
    return reportDir;
  }

  /** Where to write every live exchange in the recorded-exchange format, if anywhere. */
  public Optional<Path> recordTo() {
    return recordTo;
  }

  /**
   * Where the suite's ids (Workers, Actors, WorkSessions, records, idempotency keys) come from;
   * each call must return a new one matching the spec's {@code JarvisId} pattern.
   */
  public Supplier<String> ids() {
    return ids;
  }

  /** The suite's clock, for request timestamps and record times. */
  public Clock clock() {
    return clock;
  }

  /** How long one HTTP exchange may take. */
  public Duration timeout() {
    return timeout;
  }

  /** Where one line per check is printed as it finishes. */
  public PrintStream progress() {
    return progress;
  }

  /**
   * One credential per role, for a host that binds credentials to Actors; empty when {@link
   * #token()} may act as any Actor (demo mode).
   */
  public Optional<RoleCredentials> roles() {
    return roles;
  }

  /**
   * The prefix of every Worker and Actor id the suite registers in this run, so that a run on a
   * live service touches only what it created itself; with {@link #roles()}, the human's, agent's
   * and outsider's Actor ids must start with it (the suite registers them, and registers nothing
   * outside the prefix), so it must be fresh for each run.
   */
  public String runPrefix() {
    return runPrefix;
  }

  /**
   * An Actor the host requires to sign its events, with its key, for the {@code signatures} checks;
   * empty: they are skipped.
   */
  public Optional<RequiredSigner> requiredSigner() {
    return requiredSigner;
  }

  /**
   * The Policy {@link #policyId()} as the host holds it, if given: the checks take every action
   * they send from its rules. Empty: the suite assumes the SDK's sample Policy where {@code
   * policyId} is its id, and otherwise skips the checks that need an action the Policy allows,
   * reviews or denies.
   */
  public Optional<Policy> policy() {
    return policy;
  }

  /**
   * A Policy the host holds that neither is owned by nor assigned to the suite's human Worker, if
   * given, for the checks that a WorkSession cannot be opened under it; empty: they are skipped, as
   * the suite cannot know the host's assignments.
   */
  public Optional<String> foreignPolicyId() {
    return foreignPolicyId;
  }

  /** {@value #RUN_PREFIX_START}, an id of the run's (its first 40 characters) and "-". */
  private static String defaultRunPrefix(Supplier<String> ids) {
    String id = ids.get();
    return RUN_PREFIX_START + id.substring(0, Math.min(id.length(), 40)) + "-";
  }

  /** A run against a live host that binds each role's credential to its Actor. */
  public static Builder live(URI baseUrl, RoleCredentials roles) {
    return new Builder().baseUrl(baseUrl).roles(roles);
  }

  /**
   * The token for a request naming {@code actorId} in {@code Jarvis-Actor-Id} (or none): the role's
   * when per-role credentials are given, else the one token.
   */
  String tokenFor(Optional<String> actorId) {
    return roles.map(r -> r.tokenFor(actorId)).orElse(token);
  }

  /** A run against a live host, with defaults for everything else. */
  public static Builder live(URI baseUrl, String token) {
    return new Builder().baseUrl(baseUrl).token(token);
  }

  /** A run judging recorded exchanges only. */
  public static Builder recorded(Path directory) {
    return new Builder().recordedDir(directory);
  }

  /** Builds a {@link ConformanceConfig}. */
  public static final class Builder {
    private Optional<URI> baseUrl = Optional.empty();
    private String token = "";
    private String registrarActorId = DEFAULT_REGISTRAR_ACTOR;
    private String policyId = DEFAULT_POLICY;
    private Optional<Path> recordedDir = Optional.empty();
    private Optional<Path> reportDir = Optional.empty();
    private Optional<Path> recordTo = Optional.empty();
    private Supplier<String> ids = () -> UUID.randomUUID().toString();
    private Clock clock = Clock.systemUTC();
    private Duration timeout = Duration.ofSeconds(10);
    private PrintStream progress = new PrintStream(OutputStream.nullOutputStream());
    private Optional<RoleCredentials> roles = Optional.empty();
    private Optional<String> runPrefix = Optional.empty();
    private Optional<RequiredSigner> requiredSigner = Optional.empty();
    private Optional<Policy> policy = Optional.empty();
    private Optional<String> foreignPolicyId = Optional.empty();

    private Builder() {}

    /** The live host; a trailing slash is dropped. */
    public Builder baseUrl(URI baseUrl) {
      String text = baseUrl.toString();
      this.baseUrl =
          Optional.of(URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text));
      return this;
    }

    public Builder token(String token) {
      this.token = Objects.requireNonNull(token, "token");
      return this;
    }

    public Builder registrarActorId(String actorId) {
      this.registrarActorId = Objects.requireNonNull(actorId, "actorId");
      return this;
    }

    /**
     * The Policy the suite's WorkSessions name, by id alone: with the sample Policy's id the suite
     * assumes that Policy; with another it skips the checks that need to know its rules. Give
     * {@link #policy(Policy)} instead where the suite may know the Policy.
     */
    public Builder policyId(String policyId) {
      this.policyId = Objects.requireNonNull(policyId, "policyId");
      this.policy = Optional.empty();
      return this;
    }

    /**
     * The Policy the host holds for the suite's WorkSessions, as it holds it: the suite names its
     * id and takes every action its checks send from its rules, with the SDK's policy engine.
     */
    public Builder policy(Policy policy) {
      this.policy = Optional.of(policy);
      this.policyId = Objects.requireNonNull(policy.getId(), "policy.id");
      return this;
    }

    /**
     * A Policy the host holds that neither is owned by nor assigned to the suite's human Worker,
     * for the checks that no WorkSession of that human opens under it.
     */
    public Builder foreignPolicyId(String policyId) {
      this.foreignPolicyId = Optional.of(Objects.requireNonNull(policyId, "policyId"));
      return this;
    }

    public Builder recordedDir(Path directory) {
      this.recordedDir = Optional.of(directory);
      return this;
    }

    public Builder reportDir(Path directory) {
      this.reportDir = Optional.of(directory);
      return this;
    }

    /** Writes every live exchange into {@code directory}, to be judged later with no host. */
    public Builder recordTo(Path directory) {
      this.recordTo = Optional.of(directory);
      return this;
    }

    public Builder ids(Supplier<String> ids) {
      this.ids = Objects.requireNonNull(ids, "ids");
      return this;
    }

    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    public Builder timeout(Duration timeout) {
      this.timeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    public Builder progress(PrintStream progress) {
      this.progress = Objects.requireNonNull(progress, "progress");
      return this;
    }

    /** One credential per role, for a host that binds credentials to Actors. */
    public Builder roles(RoleCredentials roles) {
      this.roles = Optional.of(roles);
      return this;
    }

    /**
     * The prefix of the Workers and Actors this run registers (default: {@value #RUN_PREFIX_START},
     * an id from {@link #ids} and "-"). With per-role credentials give it: the role Actors' ids
     * must start with it, fresh for each run.
     */
    public Builder runPrefix(String runPrefix) {
      this.runPrefix = Optional.of(runPrefix);
      return this;
    }

    /**
     * An Actor the host requires to sign every event it appends, and its key: the {@code
     * signatures} checks then expect its unsigned and badly signed events refused with {@code
     * unauthorized_actor} and its signed one appended.
     */
    public Builder requiredSigner(RequiredSigner signer) {
      this.requiredSigner = Optional.of(signer);
      return this;
    }

    public ConformanceConfig build() {
      return new ConformanceConfig(this);
    }
  }

  @Override
  public String toString() {
    // Never the token (nor the roles' tokens: RoleCredentials hides them too).
    return "ConformanceConfig[baseUrl="
        + baseUrl
        + ", registrarActorId="
        + registrarActorId
        + ", policyId="
        + policyId
        + ", recordedDir="
        + recordedDir
        + ", runPrefix="
        + runPrefix
        + ", roles="
        + roles
        + ", requiredSigner="
        + requiredSigner.map(RequiredSigner::actorId)
        + ", policyGiven="
        + policy.isPresent()
        + ", foreignPolicyId="
        + foreignPolicyId
        + "]";
  }
}
