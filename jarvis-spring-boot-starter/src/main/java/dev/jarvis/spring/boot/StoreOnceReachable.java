package dev.jarvis.spring.boot;

import dev.jarvis.host.CommitResult;
import dev.jarvis.host.HostStores;
import dev.jarvis.host.IdempotencyStore;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordStore;
import dev.jarvis.host.SessionWithRecords;
import dev.jarvis.host.StoreUnavailableException;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.WorkSessionStore;
import dev.jarvis.host.notify.NotificationOutbox;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A store opened (connected and migrated) at its first use once its database answers, for {@code
 * jarvis.host.store.fail-fast=false}: the service starts with the database down, every use before
 * the store opens is a {@link StoreUnavailableException} (answered 503, retry with the same key),
 * and the health check's background round opens it as soon as it can. One opening runs at a time; a
 * use while it runs fails at once rather than queue behind a database that does not answer.
 * Policies seeded before the store opened are written when it opens, before anything else.
 */
final class StoreOnceReachable implements HostStores {

  private static final System.Logger LOG = System.getLogger("dev.jarvis.spring.boot");

  private final Supplier<HostStores> opening;
  private final ReentrantLock lock = new ReentrantLock();
  private final List<StoredRecord> seeds = new ArrayList<>();
  private volatile HostStores opened;

  StoreOnceReachable(Supplier<HostStores> opening) {
    this.opening = opening;
  }

  /** Opens the store now if it can: the service's start-up tries once, without failing. */
  static StoreOnceReachable tryingNow(Supplier<HostStores> opening) {
    StoreOnceReachable stores = new StoreOnceReachable(opening);
    try {
      stores.store();
    } catch (StoreUnavailableException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "Jarvis store not reachable at start-up (jarvis.host.store.fail-fast=false): Jarvis"
              + " answers 503 until it is; "
              + e.getCause());
    }
    return stores;
  }

  /** Whether the store has been opened. */
  boolean isOpen() {
    return opened != null;
  }

  private HostStores store() {
    HostStores current = opened;
    if (current != null) {
      return current;
    }
    if (!lock.tryLock()) {
      throw new StoreUnavailableException("the host's store is being opened", null);
    }
    try {
      if (opened == null) {
        HostStores fresh;
        try {
          fresh = opening.get();
        } catch (RuntimeException e) {
          throw new StoreUnavailableException("the host's store cannot be reached yet", e);
        }
        for (StoredRecord seed : seeds) {
          fresh.seed(seed);
        }
        seeds.clear();
        opened = fresh;
        LOG.log(System.Logger.Level.INFO, "Jarvis store reachable and migrated");
      }
      return opened;
    } finally {
      lock.unlock();
    }
  }

  // The views are asked for before the store opens (the host keeps them from its construction),
  // so each is a stand-in that reaches the opened store's view at every call.
  private final WorkSessionStore sessions = view(WorkSessionStore.class, HostStores::sessions);
  private final RecordStore records = view(RecordStore.class, HostStores::records);
  private final IdempotencyStore idempotency =
      view(IdempotencyStore.class, HostStores::idempotency);

  // The store it opens is a JdbcHostStores, which keeps an outbox; until then a dispatcher's run
  // meets the same 503-kind failure as a request, and tries again at its next run.
  private final NotificationOutbox outbox =
      view(
          NotificationOutbox.class,
          opened ->
              opened
                  .notificationOutbox()
                  .orElseThrow(
                      () -> new IllegalStateException("the opened store keeps no outbox")));

  @Override
  public Optional<NotificationOutbox> notificationOutbox() {
    return Optional.of(outbox);
  }

  private <V> V view(Class<V> type, Function<HostStores, V> of) {
    return type.cast(
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (proxy, method, args) -> {
              if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                  case "equals" -> proxy == args[0];
                  case "hashCode" -> System.identityHashCode(proxy);
                  default -> type.getSimpleName() + " of a store opened once reachable";
                };
              }
              try {
                return method.invoke(of.apply(store()), args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            }));
  }

  @Override
  public WorkSessionStore sessions() {
    return sessions;
  }

  @Override
  public RecordStore records() {
    return records;
  }

  @Override
  public IdempotencyStore idempotency() {
    return idempotency;
  }

  @Override
  public CommitResult commit(Mutation mutation) {
    return store().commit(mutation);
  }

  @Override
  public Optional<SessionWithRecords> findWithRecords(
      String workSessionId, RecordKind kind, Set<String> statuses) {
    return store().findWithRecords(workSessionId, kind, statuses);
  }

  @Override
  public Optional<SessionWithRecords> findWithRecords(
      String workSessionId, RecordKind kind, Set<String> statuses, Set<String> eventIds) {
    return store().findWithRecords(workSessionId, kind, statuses, eventIds);
  }

  /** Before the store opens, kept and written when it does (the configured Policies). */
  @Override
  public void seed(StoredRecord record) {
    lock.lock();
    try {
      if (opened == null) {
        seeds.add(record);
        return;
      }
    } finally {
      lock.unlock();
    }
    opened.seed(record);
  }

  @Override
  public boolean ready() {
    try {
      return store().ready();
    } catch (RuntimeException e) {
      return false;
    }
  }

  @Override
  public void close() {
    HostStores current = opened;
    if (current != null) {
      current.close();
    }
  }
}
