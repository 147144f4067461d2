package dev.jarvis.spring.boot;

import dev.jarvis.host.HostConfig;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.io.Resource;

/**
 * The {@code jarvis.host.*} properties. Credentials come from a file of token hashes ({@code
 * credentials-file}); {@code demo-token} is the demo mode (one token acting as anyone) and is
 * announced as such. Nothing here is ever logged with its value.
 */
@ConfigurationProperties(prefix = "jarvis.host")
public class JarvisHostProperties {

  /**
   * Whether Jarvis runs in this service at all: false leaves no servlet, store, health component,
   * purge thread or metrics behind.
   */
  private boolean enabled = true;

  /**
   * Where the Jarvis servlet is mounted; the protocol's paths are below it. The root is refused: it
   * would take the service's own paths.
   */
  private String path = "/jarvis";

  /**
   * The JSON credentials file binding SHA-256 token hashes to Actors (see docs/host.md): {@code
   * classpath:}, file: or a plain file path (relative to the working directory). Required unless
   * demo-token.
   */
  private Resource credentialsFile;

  /**
   * The Actors' Ed25519 public keys and which Actors must sign (docs/protocol-decisions.md,
   * "Actor-signed events"): {@code classpath:}, file: or a plain file path. Unset: no keys, so a
   * signed event is refused (its key unknown) and no Actor must sign.
   */
  private Resource actorKeysFile;

  /**
   * Demo mode only: one bearer token that may act as any Actor and administer, announced with a
   * warning at start-up; never with credentials-file.
   */
  private String demoToken;

  /** The Actor that registers Workers and Actors. */
  private String adminActor = HostConfig.DEFAULT_ADMIN_ACTOR_ID;

  /**
   * Policy files, one JSON Policy record each (classpath:, file: or a plain file path), validated
   * at start-up.
   */
  private List<Resource> policies = new ArrayList<>();

  /**
   * Which Policies govern which human Workers besides their owners, each {@code
   * POLICY_ID=HUMAN_WORKER_ID} or {@code POLICY_ID=*} (every human Worker), as {@code serve
   * --assign-policy}. A WorkSession is held only to a Policy that governs its human Worker; none by
   * default.
   */
  private List<String> policyAssignments = new ArrayList<>();

  /**
   * Which human Workers each agent Worker may open WorkSessions for, each {@code
   * AGENT_WORKER_ID=HUMAN_WORKER_ID}, as {@code serve --agent-serves}; none by default (a human
   * opens its own WorkSessions).
   */
  private List<String> agentServes = new ArrayList<>();

  /** How far Jarvis-Request-Timestamp may be from the host clock. */
  private Duration timestampTolerance = Duration.ofSeconds(300);

  /** How long idempotency records are kept. */
  private Duration idempotencyRetention = Duration.ofHours(24);

  /** How often idempotency records past their retention are deleted. */
  private Duration idempotencyPurgeInterval = Duration.ofMinutes(5);

  /**
   * How often Requests past their expires_at are written expired, so that an agent waiting on one
   * is told even when nobody touches its WorkSession (each instance sweeps; one writes each
   * expiry).
   */
  private Duration requestExpiryInterval = Duration.ofSeconds(1);

  /**
   * Whether each Jarvis request is logged, one line at INFO on logger dev.jarvis.host.requests
   * (method, path, status, Actor, operation, outcome, error_id, trace id; never credentials or
   * bodies).
   */
  private boolean logRequests = true;

  /**
   * Where the caller's identity comes from: credentials (the credentials file, or the demo token)
   * or spring-security (the service's Spring Security Authentication, mapped to Actors by the
   * spring-security.* rule; needs spring-security-core on the classpath).
   */
  private AuthKind auth = AuthKind.CREDENTIALS;

  private final SpringSecurity springSecurity = new SpringSecurity();

  private final Store store = new Store();

  private final Console console = new Console();

  /**
   * The review console (docs/console.md): a web page at path/console/ where a human signs in with a
   * bearer token bound to their Actor and answers the Requests waiting for them.
   */
  public static class Console {

    /** Whether the review console is served at path/console/. */
    private boolean enabled;

    /**
     * Where the console's API reaches this host's protocol (e.g. http://127.0.0.1:8080/jarvis/);
     * unset: over plain HTTP at the address and port the console's request arrived on, plus the
     * context path and path. Set it when the service terminates TLS itself.
     */
    private java.net.URI hostUri;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public java.net.URI getHostUri() {
      return hostUri;
    }

    public void setHostUri(java.net.URI hostUri) {
      this.hostUri = hostUri;
    }
  }

  private final Notifications notifications = new Notifications();

  /**
   * Notifications that a Request waits (docs/notifications.md): with a webhook (or a
   * RequestNotifier bean of the service's), each accepted Request creation, expiry, Review and
   * Takeover is written to the store's outbox and delivered, signed, at least once.
   */
  public static class Notifications {

    /** How often this instance sends the notifications that are due. */
    private Duration interval = Duration.ofSeconds(1);

    private final Webhook webhook = new Webhook();

    public Duration getInterval() {
      return interval;
    }

    public void setInterval(Duration interval) {
      this.interval = interval;
    }

    public Webhook getWebhook() {
      return webhook;
    }
  }

  /** The built-in webhook: a signed POST of each notification. */
  public static class Webhook {

    /**
     * Where each notification is POSTed (http or https, no user info). Redirects are never
     * followed; loopback, link-local and private addresses are refused unless allow-private.
     */
    private URI url;

    /**
     * The file holding the HMAC-SHA256 secret deliveries are signed with (at least 16 bytes,
     * surrounding whitespace ignored): classpath:, file: or a plain path. Required with url.
     */
    private Resource secretFile;

    /** Whether url may reach loopback, link-local and private addresses (a receiver nearby). */
    private boolean allowPrivate;

    public URI getUrl() {
      return url;
    }

    public void setUrl(URI url) {
      this.url = url;
    }

    public Resource getSecretFile() {
      return secretFile;
    }

    public void setSecretFile(Resource secretFile) {
      this.secretFile = secretFile;
    }

    public boolean isAllowPrivate() {
      return allowPrivate;
    }

    public void setAllowPrivate(boolean allowPrivate) {
      this.allowPrivate = allowPrivate;
    }
  }

  /** Where HostAuth takes the caller's identity from. */
  public enum AuthKind {
    /** The credentials file (token hashes bound to Actors), or the demo token. */
    CREDENTIALS,
    /** The service's Spring Security Authentication of the request. */
    SPRING_SECURITY
  }

  /**
   * How a Spring Security Authentication maps to the Actors its holder may act as (with {@code
   * jarvis.host.auth=spring-security}): the Actor ids listed in the token claim actors-claim, and
   * those of the granted authorities starting with actor-authority-prefix (the prefix removed); it
   * administers the host when it holds admin-authority.
   */
  public static class SpringSecurity {

    /** The claim listing the Actor ids, unless configured otherwise. */
    public static final String DEFAULT_ACTORS_CLAIM = "jarvis_actors";

    /** The authority prefix naming an Actor id, unless configured otherwise. */
    public static final String DEFAULT_ACTOR_AUTHORITY_PREFIX = "JARVIS_ACTOR_";

    /** The authority that administers the host, unless configured otherwise. */
    public static final String DEFAULT_ADMIN_AUTHORITY = "JARVIS_ADMIN";

    /**
     * The claim of an OAuth2 token (a JWT's, or an introspected token's attributes) listing the
     * Actor ids its holder may act as: a JSON array of strings, or one string.
     */
    private String actorsClaim = DEFAULT_ACTORS_CLAIM;

    /**
     * Granted authorities starting with this prefix name an Actor id the holder may act as (the id
     * follows the prefix).
     */
    private String actorAuthorityPrefix = DEFAULT_ACTOR_AUTHORITY_PREFIX;

    /**
     * The granted authority that lets its holder register Workers and Actors (as the admin Actor,
     * which it must also be allowed to act as), e.g. SCOPE_jarvis.admin for a JWT scope.
     */
    private String adminAuthority = DEFAULT_ADMIN_AUTHORITY;

    public String getActorsClaim() {
      return actorsClaim;
    }

    public void setActorsClaim(String actorsClaim) {
      this.actorsClaim = actorsClaim;
    }

    public String getActorAuthorityPrefix() {
      return actorAuthorityPrefix;
    }

    public void setActorAuthorityPrefix(String actorAuthorityPrefix) {
      this.actorAuthorityPrefix = actorAuthorityPrefix;
    }

    public String getAdminAuthority() {
      return adminAuthority;
    }

    public void setAdminAuthority(String adminAuthority) {
      this.adminAuthority = adminAuthority;
    }
  }

  /** Where the host keeps its state. */
  public static class Store {

    /** memory (lost on exit), embedded (SQLite in data-dir) or datasource (the service's). */
    private StoreKind kind = StoreKind.MEMORY;

    /** The embedded store's directory. */
    private Path dataDir = Path.of("jarvis-host-data");

    /**
     * The datasource store's schema in the service's database, created if missing: Jarvis's tables
     * (jarvis_*) and its Flyway history (jarvis_schema_history) live there, apart from the
     * service's own tables and Flyway history.
     */
    private String schema = "jarvis";

    /**
     * Whether the service fails to start when the store cannot be reached at start-up. With false
     * it starts, Jarvis answers 503 (retry with the same Idempotency-Key) and health DOWN until the
     * store answers, then opens and migrates it and turns UP, without a restart.
     */
    private boolean failFast = true;

    /**
     * How long the health check waits for the store before it reports DOWN, and how long a request
     * waits for a connection of Jarvis's own pool (embedded store); on the datasource store the
     * wait for a connection is the service pool's (spring.datasource.hikari.connection-timeout).
     */
    private Duration timeout = Duration.ofSeconds(2);

    public StoreKind getKind() {
      return kind;
    }

    public void setKind(StoreKind kind) {
      this.kind = kind;
    }

    public Path getDataDir() {
      return dataDir;
    }

    public void setDataDir(Path dataDir) {
      this.dataDir = dataDir;
    }

    public String getSchema() {
      return schema;
    }

    public void setSchema(String schema) {
      this.schema = schema;
    }

    public boolean isFailFast() {
      return failFast;
    }

    public void setFailFast(boolean failFast) {
      this.failFast = failFast;
    }

    public Duration getTimeout() {
      return timeout;
    }

    public void setTimeout(Duration timeout) {
      this.timeout = timeout;
    }
  }

  /** The kinds of store. */
  public enum StoreKind {
    /** In memory: lost on exit; for tests and demos. */
    MEMORY,
    /** SQLite in data-dir: one instance, kept across restarts. */
    EMBEDDED,
    /** The service's PostgreSQL DataSource: several instances on one database. */
    DATASOURCE
  }

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public String getPath() {
    return path;
  }

  public void setPath(String path) {
    this.path = path;
  }

  public Resource getCredentialsFile() {
    return credentialsFile;
  }

  public void setCredentialsFile(Resource credentialsFile) {
    this.credentialsFile = credentialsFile;
  }

  public Resource getActorKeysFile() {
    return actorKeysFile;
  }

  public void setActorKeysFile(Resource actorKeysFile) {
    this.actorKeysFile = actorKeysFile;
  }

  public String getDemoToken() {
    return demoToken;
  }

  public void setDemoToken(String demoToken) {
    this.demoToken = demoToken;
  }

  public String getAdminActor() {
    return adminActor;
  }

  public void setAdminActor(String adminActor) {
    this.adminActor = adminActor;
  }

  public List<Resource> getPolicies() {
    return policies;
  }

  public void setPolicies(List<Resource> policies) {
    this.policies = policies;
  }

  public List<String> getPolicyAssignments() {
    return policyAssignments;
  }

  public void setPolicyAssignments(List<String> policyAssignments) {
    this.policyAssignments = policyAssignments;
  }

  public List<String> getAgentServes() {
    return agentServes;
  }

  public void setAgentServes(List<String> agentServes) {
    this.agentServes = agentServes;
  }

  public Duration getTimestampTolerance() {
    return timestampTolerance;
  }

  public void setTimestampTolerance(Duration timestampTolerance) {
    this.timestampTolerance = timestampTolerance;
  }

  public Duration getIdempotencyRetention() {
    return idempotencyRetention;
  }

  public void setIdempotencyRetention(Duration idempotencyRetention) {
    this.idempotencyRetention = idempotencyRetention;
  }

  public Duration getIdempotencyPurgeInterval() {
    return idempotencyPurgeInterval;
  }

  public void setIdempotencyPurgeInterval(Duration idempotencyPurgeInterval) {
    this.idempotencyPurgeInterval = idempotencyPurgeInterval;
  }

  public Duration getRequestExpiryInterval() {
    return requestExpiryInterval;
  }

  public void setRequestExpiryInterval(Duration requestExpiryInterval) {
    this.requestExpiryInterval = requestExpiryInterval;
  }

  public boolean isLogRequests() {
    return logRequests;
  }

  public void setLogRequests(boolean logRequests) {
    this.logRequests = logRequests;
  }

  public Store getStore() {
    return store;
  }

  public Notifications getNotifications() {
    return notifications;
  }

  public AuthKind getAuth() {
    return auth;
  }

  public void setAuth(AuthKind auth) {
    this.auth = auth;
  }

  public SpringSecurity getSpringSecurity() {
    return springSecurity;
  }

  public Console getConsole() {
    return console;
  }

  @Override
  public String toString() {
    // Never the demo token.
    return "JarvisHostProperties[path="
        + path
        + ", credentialsFile="
        + credentialsFile
        + ", auth="
        + auth
        + ", demoMode="
        + (demoToken != null)
        + ", store="
        + store.kind
        + "]";
  }
}
