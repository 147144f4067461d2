package dev.jarvis.cli;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.signature.ActorKeys;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.host.AgentActions;
import dev.jarvis.host.Credentials;
import dev.jarvis.host.EventStreamLimits;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.HostStores;
import dev.jarvis.host.WorkSessionGovernance;
import dev.jarvis.host.notify.WebhookNotifier;
import dev.jarvis.host.reference.HttpRuntime;
import dev.jarvis.host.reference.ReferenceHost;
import dev.jarvis.host.reference.ReferenceHostConfig;
import dev.jarvis.model.AgentWorker;
import dev.jarvis.samples.SampleRecords;
import dev.jarvis.store.jdbc.StoreSpec;
import dev.jarvis.store.jdbc.StoreTimeouts;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code serve --port N (--token T | --credentials FILE) [--policy FILE]... [--assign-policy
 * POLICY=HUMAN]... [--agent-serves AGENT=HUMAN]... [--admin-actor ID] [--store STORE] [--data-dir
 * DIR] [--store-pool-wait D] [--store-statement-timeout D] [--store-lock-timeout D]
 * [--store-busy-timeout D] [--runtime undertow|jersey] [--webhook URL --webhook-secret-file FILE
 * [--webhook-allow-private]] [--console]}: runs the reference host until stopped (SIGTERM or Ctrl-C
 * closes it cleanly). HostAuth is {@code Authorization: Bearer T} in demo mode, or the credentials
 * file's tokens, each bound to Actors; each Policy file is one JSON {@code Policy} record; the
 * admin Actor may register Workers and Actors. The host keeps its state in the store {@link
 * StoreSpec} names: the embedded SQLite store in {@code --data-dir} unless {@code --store} says
 * otherwise (a database password only from {@value StoreSpec#PASSWORD_ENVIRONMENT_VARIABLE}). One
 * log line per request on stderr, never the token or the password.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the reference host until stopped (SIGTERM or Ctrl-C stop it cleanly).",
      "One log line per request on stderr, never the token."
    })
final class ServeCommand implements Callable<Integer> {

  /** The reference host's per-request logger. */
  static final String REQUEST_LOG = "dev.jarvis.host.reference.requests";

  private final CliIo io;
  private final CountDownLatch stop;

  @Option(
      names = "--port",
      required = true,
      paramLabel = "N",
      description = "the loopback port, 0 for a free one")
  int port;

  /** Exactly one way to authenticate callers. */
  static final class Auth {
    @Option(
        names = "--token",
        required = true,
        paramLabel = "T",
        description =
            "demo mode: requests carry Authorization: Bearer T, which may act as any Actor and"
                + " administer")
    String token;

    @Option(
        names = "--credentials",
        required = true,
        paramLabel = "FILE",
        description =
            "a JSON array of {\"token_sha256\", \"actors\", \"admin\"}: each bearer token"
                + " acts only as its Actors (docs/host.md)")
    Path credentials;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Auth auth;

  @Option(
      names = "--policy",
      paramLabel = "FILE",
      description =
          "a JSON Policy record the host holds (repeatable); the sample Policy"
              + " policy-bounded-001 is always held unless a file replaces it")
  List<Path> policies = new java.util.ArrayList<>();

  @Option(
      names = "--actor-keys",
      paramLabel = "FILE",
      description =
          "the Actors' Ed25519 public keys: every signed event is verified, and the Actors in"
              + " must_sign must sign; "
              + ActorKeysFile.DESCRIPTION)
  Optional<Path> actorKeys = Optional.empty();

  @Option(
      names = "--admin-actor",
      paramLabel = "ID",
      description = "the Actor that registers Workers and Actors (default: ${DEFAULT-VALUE})")
  String admin = HostConfig.DEFAULT_ADMIN_ACTOR_ID;

  @Option(
      names = "--non-action-event-type",
      paramLabel = "TYPE",
      description =
          "an event type agents append without a PolicyDecision (repeatable; exact; default:"
              + " none, every agent event is an action)")
  List<String> nonActionEventTypes = new java.util.ArrayList<>();

  @Option(
      names = "--agent-worker",
      paramLabel = "FILE",
      description =
          "a JSON AgentWorker record (repeatable): its autonomy_level applies with the Policy's,"
              + " the stricter winning")
  List<Path> agentWorkers = new java.util.ArrayList<>();

  @Option(
      names = "--assign-policy",
      paramLabel = "POLICY=HUMAN",
      description =
          "the Policy POLICY governs the human Worker HUMAN besides its owner (repeatable);"
              + " POLICY=* governs every human Worker. A WorkSession is held only to a Policy"
              + " that governs its human. Default: each Policy governs its owner alone, and with"
              + " --token (demo mode) the sample Policy governs every human")
  List<String> policyAssignments = new java.util.ArrayList<>();

  @Option(
      names = "--agent-serves",
      paramLabel = "AGENT=HUMAN",
      description =
          "the agent Worker AGENT may open WorkSessions for the human Worker HUMAN (repeatable);"
              + " default: none, only a human opens its own WorkSessions")
  List<String> agentServing = new java.util.ArrayList<>();

  @Option(
      names = "--store",
      paramLabel = "STORE",
      description =
          "memory | jdbc:postgresql://HOST:PORT/DB?user=U (password from JARVIS_STORE_PASSWORD)"
              + " | jdbc:sqlite:FILE; default: embedded store in --data-dir")
  Optional<String> store = Optional.empty();

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description = "where the embedded store lives (default: ./jarvis-host-data)")
  Optional<Path> dataDir = Optional.empty();

  @Option(
      names = "--store-pool-wait",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "the longest a request waits for a database connection before it is answered 503"
              + " (default: 2s; 500ms, 2s or PT2S)")
  Duration poolWait = StoreTimeouts.DEFAULT_POOL_WAIT;

  @Option(
      names = "--store-statement-timeout",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "PostgreSQL: the longest one statement runs (statement_timeout; default: 5s)")
  Duration statementTimeout = StoreTimeouts.DEFAULT_STATEMENT_TIMEOUT;

  @Option(
      names = "--store-lock-timeout",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "PostgreSQL: the longest a statement waits for a lock (lock_timeout; default: 2s)")
  Duration lockTimeout = StoreTimeouts.DEFAULT_LOCK_TIMEOUT;

  @Option(
      names = "--store-busy-timeout",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "SQLite: the longest a write waits for the write lock (busy_timeout; default: 5s)")
  Duration busyTimeout = StoreTimeouts.DEFAULT_BUSY_TIMEOUT;

  @Option(
      names = "--stream-heartbeat",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "how often an idle event stream carries a heartbeat comment (default: 15s); keep it"
              + " under the idle timeout of any proxy between the host and its subscribers")
  Duration streamHeartbeat = EventStreamLimits.DEFAULTS.heartbeat();

  /** {@code 500ms}, {@code 2s} or an ISO-8601 duration such as {@code PT2S}. */
  static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      String text = value.trim().toLowerCase(java.util.Locale.ROOT);
      try {
        if (text.endsWith("ms")) {
          return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
        }
        if (text.endsWith("s") && !text.startsWith("p")) {
          return Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1)));
        }
        return Duration.parse(value.trim());
      } catch (RuntimeException e) {
        throw new CommandLine.TypeConversionException(
            "expected a duration such as 500ms, 2s or PT2S, got '" + value + "'");
      }
    }
  }

  @Option(
      names = "--runtime",
      paramLabel = "RUNTIME",
      converter = RuntimeConverter.class,
      description =
          "undertow (the host kit's thin binding) | jersey (its JAX-RS binding on the JDK HTTP"
              + " server); default: undertow")
  HttpRuntime runtime = HttpRuntime.UNDERTOW;

  @Option(
      names = "--console",
      description =
          "also serve the review console, a web page where a human signs in with their token and"
              + " answers the Requests waiting for them, at /console/ (its address is printed;"
              + " undertow runtime only)")
  boolean console;

  @Option(
      names = "--webhook",
      paramLabel = "URL",
      description =
          "POST a signed notification to URL for each Request created, expired, reviewed or taken"
              + " over (docs/notifications.md); needs --webhook-secret-file")
  URI webhook;

  @Option(
      names = "--webhook-secret-file",
      paramLabel = "FILE",
      description =
          "the file holding the webhook's HMAC-SHA256 secret (at least 16 bytes; surrounding"
              + " whitespace ignored); never given on the command line")
  Path webhookSecretFile;

  @Option(
      names = "--webhook-allow-private",
      description =
          "let --webhook reach loopback, link-local and private addresses (a receiver on this"
              + " host or its network); refused by default")
  boolean webhookAllowPrivate;

  /** {@code undertow} / {@code jersey}, as {@link HttpRuntime#optionName()} spells them. */
  static final class RuntimeConverter implements CommandLine.ITypeConverter<HttpRuntime> {
    @Override
    public HttpRuntime convert(String value) {
      for (HttpRuntime r : HttpRuntime.values()) {
        if (r.optionName().equals(value)) {
          return r;
        }
      }
      throw new CommandLine.TypeConversionException(
          "expected undertow or jersey, got '" + value + "'");
    }
  }

  ServeCommand(CliIo io) {
    this(io, new CountDownLatch(1));
  }

  private ServeCommand(CliIo io, CountDownLatch stop) {
    this.io = io;
    this.stop = stop;
  }

  /** Serves until {@code stop} is counted down (tests) or the JVM is asked to stop. */
  static int run(String[] args, PrintStream out, CountDownLatch stop) throws Exception {
    ServeCommand command = new ServeCommand(new CliIo(System.in, out, System.err), stop);
    try {
      new CommandLine(command).parseArgs(args);
    } catch (CommandLine.ParameterException e) {
      throw new CliException(e.getMessage());
    }
    return command.call();
  }

  @Override
  public Integer call() throws Exception {
    if (port < 0 || port > 65535) {
      throw new CliException("--port needs a port number (0–65535), got '" + port + "'");
    }
    EventStreamLimits streams;
    try {
      // EventStreamLimits holds the rule (positive); serve only names the flag that broke it.
      streams = EventStreamLimits.DEFAULTS.withHeartbeat(streamHeartbeat);
    } catch (IllegalArgumentException e) {
      throw new CliException("--stream-heartbeat must be positive, got " + streamHeartbeat);
    }
    if (console && runtime != HttpRuntime.UNDERTOW) {
      throw new CliException("--console is served on the undertow runtime only");
    }
    PrintStream out = io.out();
    // The sample Policy first, so that a plain serve runs the demo; a file with its id replaces it.
    AgentActions agentActions = agentActions();
    ActorKeys keys = ActorKeysFile.read(actorKeys).orElse(ActorKeys.none());
    WorkSessionGovernance governance = governance();
    ReferenceHostConfig.Builder config =
        hostAuth()
            .port(port)
            .runtime(runtime)
            .console(console)
            .host(
                b ->
                    b.adminActorId(admin)
                        .agentActions(agentActions)
                        .actorKeys(keys)
                        .governance(governance)
                        .streams(streams))
            .policy(SampleRecords.policy());
    for (Path file : policies) {
      config.policy(policy(file.toString()));
    }
    Optional<WebhookNotifier> notifier = webhookNotifier();
    notifier.ifPresent(config::notifier);
    // One line per log record (JUL's default takes two), and a record's exception after it (%6$s:
    // its stack, or nothing), or no 500 says why; set before the first record is written.
    System.setProperty(
        "java.util.logging.SimpleFormatter.format", "%1$tFT%1$tT.%1$tLZ %4$s %5$s%6$s%n");
    StoreSpec spec;
    StoreTimeouts timeouts;
    try {
      spec = StoreSpec.of(store, dataDir);
      timeouts =
          StoreTimeouts.defaults()
              .withPoolWait(poolWait)
              .withStatementTimeout(statementTimeout)
              .withLockTimeout(lockTimeout)
              .withBusyTimeout(busyTimeout);
    } catch (IllegalArgumentException e) {
      throw new CliException(e.getMessage());
    }
    HostStores stores;
    try {
      stores = spec.open(StoreSpec.passwordFromEnvironment(), timeouts);
    } catch (RuntimeException e) {
      throw new CliException("cannot open the store (" + spec.describe() + "): " + rootMessage(e));
    }
    // From here the host owns the stores: ReferenceHost.close() closes them.
    ReferenceHostConfig built = config.stores(stores).build();
    ReferenceHost host;
    try {
      host = ReferenceHost.start(built);
    } catch (RuntimeException e) {
      closeQuietly(stores, e);
      throw new CliException("cannot listen on port " + port + ": " + rootMessage(e));
    }
    Thread closer =
        new Thread(
            () -> {
              host.close();
              out.println("Jarvis reference host stopped");
              out.flush();
            },
            "jarvis-serve-shutdown");
    Runtime.getRuntime().addShutdownHook(closer);
    if (built.demoMode()) {
      out.println(ReferenceHostConfig.DEMO_MODE_NOTICE);
    }
    out.printf(
        "Jarvis reference host listening on %s (admin Actor %s, %d Policy file(s)) store %s"
            + " runtime %s; Ctrl-C stops it%n",
        host.baseUri(), admin, policies.size(), spec.describe(), runtime.optionName());
    host.consoleUri()
        .ifPresent(page -> out.printf("Review console on %s (sign in with your token)%n", page));
    if (notifier.isPresent()) {
      // The URL without its query (which may carry a token of the receiver's), never the secret.
      out.printf(
          "Notifications to %s://%s%s%s%n",
          webhook.getScheme(),
          webhook.getRawAuthority(),
          webhook.getRawPath() == null ? "" : webhook.getRawPath(),
          webhookAllowPrivate ? " (private addresses allowed)" : "");
    }
    out.flush();
    stop.await();
    Runtime.getRuntime().removeShutdownHook(closer);
    closer.run();
    return 0;
  }

  /** The webhook of {@code --webhook}, its secret read from {@code --webhook-secret-file}. */
  private Optional<WebhookNotifier> webhookNotifier() throws CliException {
    if (webhook == null) {
      if (webhookSecretFile != null || webhookAllowPrivate) {
        throw new CliException("--webhook-secret-file and --webhook-allow-private need --webhook");
      }
      return Optional.empty();
    }
    if (webhookSecretFile == null) {
      throw new CliException(
          "--webhook needs --webhook-secret-file (the secret is never an argument)");
    }
    byte[] secret;
    try {
      secret =
          new String(Files.readAllBytes(webhookSecretFile), StandardCharsets.UTF_8)
              .strip()
              .getBytes(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new CliException("cannot read --webhook-secret-file " + webhookSecretFile);
    }
    try {
      return Optional.of(
          WebhookNotifier.builder(webhook, secret).allowPrivate(webhookAllowPrivate).build());
    } catch (IllegalArgumentException e) {
      // The message names the rule (length, scheme), never the secret.
      throw new CliException("--webhook: " + e.getMessage());
    }
  }

  private ReferenceHostConfig.Builder hostAuth() throws CliException {
    if (auth.credentials == null) {
      return ReferenceHostConfig.demo(auth.token);
    }
    try {
      return ReferenceHostConfig.builder().auth(Credentials.fromJson(auth.credentials));
    } catch (IOException e) {
      throw new CliException("cannot read credentials file " + auth.credentials);
    } catch (IllegalArgumentException e) {
      throw new CliException(e.getMessage()); // names the entry, never a token or a hash
    }
  }

  /**
   * {@code --assign-policy} and {@code --agent-serves}; in demo mode without an assignment, the
   * sample Policy governs every human, since the one token may act as any of them anyway.
   */
  private WorkSessionGovernance governance() throws CliException {
    WorkSessionGovernance governance = WorkSessionGovernance.NONE;
    try {
      for (String text : policyAssignments) {
        governance = governance.withPolicyAssignment(text);
      }
      for (String text : agentServing) {
        governance = governance.withAgentServing(text);
      }
    } catch (IllegalArgumentException e) {
      throw new CliException(e.getMessage());
    }
    if (auth.credentials == null && policyAssignments.isEmpty()) {
      governance =
          new WorkSessionGovernance(
              ReferenceHostConfig.DEMO_GOVERNANCE.policies(), governance.humansByAgentWorker());
    }
    return governance;
  }

  private AgentActions agentActions() throws CliException {
    AgentActions actions = AgentActions.DEFAULT.withNonActionEventTypes(nonActionEventTypes);
    for (Path file : agentWorkers) {
      JsonNode worker = record("AgentWorker", file.toString());
      actions =
          actions.withAgentWorker(JarvisJson.mapper().convertValue(worker, AgentWorker.class));
    }
    return actions;
  }

  private static JsonNode policy(String file) throws CliException {
    return record("Policy", file);
  }

  /** A JSON record of {@code schema} from {@code file}, held to the spec. */
  private static JsonNode record(String schema, String file) throws CliException {
    JsonNode record;
    try {
      record = JarvisJson.mapper().readTree(Files.readAllBytes(Path.of(file)));
    } catch (JacksonException e) {
      throw new CliException(file + ": not valid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new CliException("cannot read " + schema + " file " + file);
    }
    List<ProtocolViolation> violations = PayloadValidator.forSpec().validate(schema, record);
    if (!violations.isEmpty()) {
      ProtocolViolation first = violations.get(0);
      throw new CliException(
          file
              + ": not a valid "
              + schema
              + ": "
              + first.errorId().getValue()
              + " at "
              + first.field());
    }
    return record;
  }

  private static void closeQuietly(HostStores stores, RuntimeException cause) {
    try {
      stores.close();
    } catch (RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
  }
}
