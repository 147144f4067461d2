package dev.jarvis.store.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * A {@code DataSource} that counts what the store asks of the database: connections borrowed,
 * statements executed and commits, each of which is one round trip (the driver sends {@code BEGIN}
 * together with a transaction's first statement). Only the calls of the thread that last {@link
 * #reset} count: a pool's own threads (HikariCP filling itself in the background, each new
 * connection's set-up statement) are none of the request's.
 */
final class CountingDataSource {

  private static final Set<String> EXECUTES =
      Set.of("execute", "executeQuery", "executeUpdate", "executeBatch", "executeLargeUpdate");

  final AtomicInteger borrows = new AtomicInteger();
  final AtomicInteger statements = new AtomicInteger();
  final AtomicInteger commits = new AtomicInteger();
  private final DataSource counted;
  private volatile Thread counting;

  CountingDataSource(DataSource target) {
    counted =
        proxy(
            DataSource.class,
            target,
            (method, result) -> {
              if (method.getName().equals("getConnection")) {
                if (mine()) {
                  borrows.incrementAndGet();
                }
                return proxy(Connection.class, (Connection) result, this::connection);
              }
              return result;
            });
  }

  /** The counting view. */
  DataSource dataSource() {
    return counted;
  }

  /** Forgets what was counted so far, and counts this thread's calls from now on. */
  void reset() {
    counting = Thread.currentThread();
    borrows.set(0);
    statements.set(0);
    commits.set(0);
  }

  /** Statements and commits: the round trips to the database. */
  int roundTrips() {
    return statements.get() + commits.get();
  }

  private Object connection(Method method, Object result) {
    if (method.getName().equals("commit") && mine()) {
      commits.incrementAndGet();
    }
    if (result instanceof Statement statement) {
      @SuppressWarnings("unchecked")
      Class<Statement> type = (Class<Statement>) method.getReturnType();
      return proxy(type, statement, (m, r) -> r);
    }
    return result;
  }

  private boolean mine() {
    return counting == Thread.currentThread();
  }

  /** What a proxy does with a call's result once the target answered it. */
  @FunctionalInterface
  private interface After {
    Object apply(Method method, Object result);
  }

  private <T> T proxy(Class<T> type, T target, After after) {
    InvocationHandler handler =
        (self, method, args) -> {
          if (type != DataSource.class
              && Statement.class.isAssignableFrom(type)
              && EXECUTES.contains(method.getName())
              && mine()) {
            statements.incrementAndGet();
          }
          try {
            return after.apply(method, method.invoke(target, args));
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        };
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
  }
}
