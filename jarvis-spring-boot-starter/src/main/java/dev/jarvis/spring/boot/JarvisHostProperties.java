package dev.jarvis.spring.boot;

import dev.jarvis.host.HostConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code jarvis.host.*} properties. Credentials come from a file of token hashes ({@code
 * credentials-file}); {@code demo-token} is the demo mode (one token acting as anyone) and is
 * announced as such. Nothing here is ever logged with its value.
 */
@ConfigurationProperties(prefix = "jarvis.host")
public class JarvisHostProperties {

  /** Where the Jarvis servlet is mounted; the protocol's paths are below it. */
  private String path = "/jarvis";

  /** A JSON credentials file binding SHA-256 token hashes to Actors (see docs/host.md). */
  private Path credentialsFile;

  /** Demo mode only: one bearer token that may act as any Actor and administer. */
  private String demoToken;

  /** The Actor that registers Workers and Actors. */
  private String adminActor = HostConfig.DEFAULT_ADMIN_ACTOR_ID;

  /** Policy files, one JSON Policy record each, validated at start-up. */
  private List<Path> policies = new ArrayList<>();

  /** How far Jarvis-Request-Timestamp may be from the host clock. */
  private Duration timestampTolerance = Duration.ofSeconds(300);

  /** How long idempotency records are kept. */
  private Duration idempotencyRetention = Duration.ofHours(24);

  /** How often idempotency records past their retention are deleted. */
  private Duration idempotencyPurgeInterval = Duration.ofMinutes(5);

  private final Store store = new Store();

  /** Where the host keeps its state. */
  public static class Store {

    /** memory (lost on exit), embedded (SQLite in data-dir) or datasource (the service's). */
    private StoreKind kind = StoreKind.MEMORY;

    /** The embedded store's directory. */
    private Path dataDir = Path.of("jarvis-host-data");

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
  }

  /** The kinds of store. */
  public enum StoreKind {
    /** In memory: lost on exit; for tests and demos. */
    MEMORY,
    /** SQLite in {@code data-dir}: one instance, kept across restarts. */
    EMBEDDED,
    /** The service's PostgreSQL {@code DataSource}: several instances on one database. */
    DATASOURCE
  }

  public String getPath() {
    return path;
  }

  public void setPath(String path) {
    this.path = path;
  }

  public Path getCredentialsFile() {
    return credentialsFile;
  }

  public void setCredentialsFile(Path credentialsFile) {
    this.credentialsFile = credentialsFile;
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

  public List<Path> getPolicies() {
    return policies;
  }

  public void setPolicies(List<Path> policies) {
    this.policies = policies;
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

  public Store getStore() {
    return store;
  }

  @Override
  public String toString() {
    // Never the demo token.
    return "JarvisHostProperties[path="
        + path
        + ", credentialsFile="
        + credentialsFile
        + ", demoMode="
        + (demoToken != null)
        + ", store="
        + store.kind
        + "]";
  }
}
