package dev.jarvis.store.jdbc;

/**
 * The database failed (unreachable, out of space, a bug): the host answers it as a host failure.
 */
public final class JdbcStoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  JdbcStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
