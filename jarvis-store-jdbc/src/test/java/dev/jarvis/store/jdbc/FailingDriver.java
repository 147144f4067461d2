package dev.jarvis.store.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;

/**
 * A driver that fails where a test says: the Nth statement of the arming thread, its commit or its
 * rollback, each before the database saw it or after (the answer lost on the way back). Only the
 * arming thread's calls count, so the pool's own connection set-up on its threads never does. A
 * fault before a call is the database's "disk full" ({@code SQLITE_FULL}, SQLState {@code 53100}):
 * a failure HikariCP does not take for a broken connection, so the store alone must keep the pool
 * clean. A fault after a statement that PostgreSQL ran in autocommit (its own transaction, so
 * committed) is what a lost answer is there, the link gone ({@code 08006}): a server that committed
 * a statement never answers it with an error. Any other fault after a call is the same "disk full".
 */
final class FailingDriver implements UnaryOperator<DataSource> {

  /** When a fault strikes. */
  enum When {
    /** Instead of the call: the database never saw it. */
    BEFORE,
    /** After the call ran: its answer was lost. */
    AFTER
  }

  private static final int EVERY = -1;

  private static final Set<String> EXECUTES =
      Set.of("execute", "executeQuery", "executeUpdate", "executeBatch", "executeLargeUpdate");

  private volatile Thread armed;
  private final AtomicInteger statements = new AtomicInteger();
  private volatile int failStatement;
  private volatile When statementWhen = When.BEFORE;
  private volatile Optional<When> failCommit = Optional.empty();
  private volatile boolean failRollback;
  private volatile Connection faulted;
  private final boolean sqlite;

  /** A driver for {@code database}: {@code sqlite} or {@code postgresql}. */
  FailingDriver(String database) {
    this.sqlite = database.equals("sqlite");
  }

  @Override
  public DataSource apply(DataSource driver) {
    return proxy(
        DataSource.class,
        driver,
        (method, result) ->
            method.getName().equals("getConnection")
                ? proxy(Connection.class, (Connection) result, connectionCalls((Connection) result))
                : result);
  }

  /** Counts this thread's statements from now on, failing none. */
  void count() {
    arm(Integer.MAX_VALUE, When.BEFORE, Optional.empty(), false);
  }

  /**
   * Arms the faults for this thread: the {@code statement}th statement from now on (0: none), the
   * commit, and whether a rollback fails too (once each).
   */
  void arm(int statement, When when, Optional<When> commit, boolean rollback) {
    statements.set(0);
    failStatement = statement;
    statementWhen = when;
    failCommit = commit;
    failRollback = rollback;
    faulted = null;
    armed = Thread.currentThread();
  }

  /** Fails every statement of this thread from now on, before the database sees it. */
  void failAll() {
    arm(EVERY, When.BEFORE, Optional.empty(), false);
  }

  /** Stops counting and failing. */
  void disarm() {
    armed = null;
  }

  /** The statements this thread ran since it armed. */
  int statements() {
    return statements.get();
  }

  /** The driver's own connection a fault struck, if one did. */
  Optional<Connection> faulted() {
    return Optional.ofNullable(faulted);
  }

  private boolean mine() {
    return armed == Thread.currentThread();
  }

  private SQLException fault(Connection raw, String what) {
    faulted = raw;
    String message = "injected fault at " + what + ": disk full";
    return sqlite ? new SQLException(message, null, 13) : new SQLException(message, "53100");
  }

  /** A fault after a statement ran: its answer lost. */
  private SQLException lostAnswer(Connection raw, String what) throws SQLException {
    if (sqlite || !raw.getAutoCommit()) {
      return fault(raw, what);
    }
    faulted = raw;
    return new SQLException("injected fault at " + what + ": connection lost", "08006");
  }

  private After connectionCalls(Connection raw) {
    return new After() {
      @Override
      public Object before(Method method) throws SQLException {
        if (!mine()) {
          return null;
        }
        if (method.getName().equals("commit") && failCommit.equals(Optional.of(When.BEFORE))) {
          failCommit = Optional.empty();
          throw fault(raw, "commit");
        }
        if (method.getName().equals("rollback") && failRollback) {
          failRollback = false;
          throw fault(raw, "rollback");
        }
        return null;
      }

      @Override
      public Object apply(Method method, Object result) throws SQLException {
        if (mine()
            && method.getName().equals("commit")
            && failCommit.equals(Optional.of(When.AFTER))) {
          failCommit = Optional.empty();
          throw fault(raw, "commit, after it ran");
        }
        if (result instanceof Statement statement) {
          @SuppressWarnings("unchecked")
          Class<Statement> type = (Class<Statement>) method.getReturnType();
          return proxy(type, statement, statementCalls(raw));
        }
        return result;
      }
    };
  }

  private After statementCalls(Connection raw) {
    return new After() {
      @Override
      public Object before(Method method) throws SQLException {
        if (mine()
            && EXECUTES.contains(method.getName())
            && (statements.incrementAndGet() == failStatement || failStatement == EVERY)
            && statementWhen == When.BEFORE) {
          throw fault(raw, "statement " + failStatement);
        }
        return null;
      }

      @Override
      public Object apply(Method method, Object result) throws SQLException {
        if (mine()
            && EXECUTES.contains(method.getName())
            && statements.get() == failStatement
            && statementWhen == When.AFTER) {
          failStatement = 0;
          throw lostAnswer(raw, "statement " + statements.get() + ", after it ran");
        }
        return result;
      }
    };
  }

  /** What a proxy does around a call: may fail before it, and sees its result. */
  private interface After {
    default Object before(Method method) throws SQLException {
      return null;
    }

    Object apply(Method method, Object result) throws SQLException;
  }

  private static <T> T proxy(Class<T> type, T target, After after) {
    InvocationHandler handler =
        (self, method, args) -> {
          after.before(method);
          Object result;
          try {
            result = method.invoke(target, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          return after.apply(method, result);
        };
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
  }
}
