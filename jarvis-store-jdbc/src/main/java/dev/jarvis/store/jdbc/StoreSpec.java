package dev.jarvis.store.jdbc;

import dev.jarvis.host.HostStores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Which store a host runs on, as {@code serve --store} and {@code --data-dir} name it:
 *
 * <ul>
 *   <li>{@code memory}: in memory, lost when the process ends;
 *   <li>{@code jdbc:postgresql://HOST:PORT/DB?user=U}: PostgreSQL, which several host instances can
 *       share; the password comes from {@value #PASSWORD_ENVIRONMENT_VARIABLE} only, and a URL
 *       carrying one is refused;
 *   <li>{@code jdbc:sqlite:FILE}: SQLite at that file;
 *   <li>nothing: the durable embedded default, SQLite in {@code DATA_DIR/jarvis-host.sqlite}
 *       ({@code DATA_DIR} defaults to {@code ./jarvis-host-data}).
 * </ul>
 */
public final class StoreSpec {

  /** The environment variable the database password is read from. */
  public static final String PASSWORD_ENVIRONMENT_VARIABLE = "JARVIS_STORE_PASSWORD";

  /** Where the embedded store lives unless {@code --data-dir} says otherwise. */
  public static final Path DEFAULT_DATA_DIR = Path.of("jarvis-host-data");

  /** The embedded store's file in its data directory. */
  public static final String EMBEDDED_FILE = "jarvis-host.sqlite";

  private final Optional<String> jdbcUrl;
  private final Optional<Path> dataDir;

  private StoreSpec(Optional<String> jdbcUrl, Optional<Path> dataDir) {
    this.jdbcUrl = jdbcUrl;
    this.dataDir = dataDir;
  }

  /** In memory. */
  public static StoreSpec memory() {
    return new StoreSpec(Optional.empty(), Optional.empty());
  }

  /** The embedded default in {@code dataDir}. */
  public static StoreSpec embedded(Path dataDir) {
    Objects.requireNonNull(dataDir, "dataDir");
    return new StoreSpec(
        Optional.of("jdbc:sqlite:" + dataDir.resolve(EMBEDDED_FILE)), Optional.of(dataDir));
  }

  /**
   * What {@code serve} runs on: {@code --store} if given (see {@link #parse}), else the embedded
   * default in {@code --data-dir} or {@link #DEFAULT_DATA_DIR}.
   */
  public static StoreSpec of(Optional<String> store, Optional<Path> dataDir) {
    return store.map(StoreSpec::parse).orElseGet(() -> embedded(dataDir.orElse(DEFAULT_DATA_DIR)));
  }

  /**
   * Reads a {@code --store} value.
   *
   * @throws IllegalArgumentException if it is none of the forms above, or carries a password
   */
  public static StoreSpec parse(String text) {
    String value = text.trim();
    if (value.equals("memory")) {
      return memory();
    }
    if (Dialect.of(value).isEmpty()) {
      throw new IllegalArgumentException(
          "--store takes memory, jdbc:postgresql://HOST:PORT/DB?user=U or jdbc:sqlite:FILE");
    }
    if (value.toLowerCase(Locale.ROOT).contains("password=")) {
      throw new IllegalArgumentException(
          "--store must not carry a password; set " + PASSWORD_ENVIRONMENT_VARIABLE + " instead");
    }
    return new StoreSpec(Optional.of(value), Optional.empty());
  }

  /** The password from {@value #PASSWORD_ENVIRONMENT_VARIABLE}, if set and not empty. */
  public static Optional<String> passwordFromEnvironment() {
    return Optional.ofNullable(System.getenv(PASSWORD_ENVIRONMENT_VARIABLE))
        .filter(p -> !p.isEmpty());
  }

  /** Whether this is the in-memory store. */
  public boolean inMemory() {
    return jdbcUrl.isEmpty();
  }

  /** The JDBC URL, unless in memory. */
  public Optional<String> jdbcUrl() {
    return jdbcUrl;
  }

  /**
   * Opens the store (creating the data directory of the embedded one, migrating a database).
   *
   * @param password the database password ({@link #passwordFromEnvironment()})
   * @throws JdbcStoreException if the database cannot be reached or migrated
   */
  public HostStores open(Optional<String> password) {
    return open(password, StoreTimeouts.defaults());
  }

  /**
   * Opens the store as {@link #open(Optional)} does, waiting on the database no longer than {@code
   * timeouts} say (the in-memory store never waits).
   *
   * @param password the database password ({@link #passwordFromEnvironment()})
   * @throws JdbcStoreException if the database cannot be reached or migrated
   */
  public HostStores open(Optional<String> password, StoreTimeouts timeouts) {
    if (jdbcUrl.isEmpty()) {
      return HostStores.inMemory();
    }
    dataDir.ifPresent(
        dir -> {
          try {
            Files.createDirectories(dir);
          } catch (IOException e) {
            throw new UncheckedIOException("cannot create data directory " + dir, e);
          }
        });
    return JdbcHostStores.open(
        JdbcStoreSettings.of(jdbcUrl.get()).withPassword(password).withTimeouts(timeouts));
  }

  /** What it is, safe to log (no query string, so no credentials). */
  public String describe() {
    if (jdbcUrl.isEmpty()) {
      return "in memory (lost on exit)";
    }
    String url = JdbcStoreSettings.of(jdbcUrl.get()).redactedUrl();
    return dataDir.map(dir -> "embedded SQLite in " + dir).orElse(url);
  }

  @Override
  public String toString() {
    return "StoreSpec[" + describe() + "]";
  }
}
