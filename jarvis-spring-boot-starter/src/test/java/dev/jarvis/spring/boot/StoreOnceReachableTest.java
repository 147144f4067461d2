package dev.jarvis.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.host.HostStores;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoreUnavailableException;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.samples.SampleRecords;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * With {@code jarvis.host.store.fail-fast=false} the service starts with its database down: the
 * store answers "unavailable" (503, retry) until its database answers, then opens, writes the
 * Policies it was given meanwhile, and serves, without a restart.
 */
class StoreOnceReachableTest {

  private final AtomicReference<RuntimeException> down =
      new AtomicReference<>(new IllegalStateException("connection refused"));
  private final AtomicInteger openings = new AtomicInteger();
  private final HostStores database = HostStores.inMemory();

  private HostStores open() {
    openings.incrementAndGet();
    RuntimeException fault = down.get();
    if (fault != null) {
      throw fault;
    }
    return database;
  }

  @Test
  void everyUseBeforeTheDatabaseAnswersIsUnavailableAndReadinessIsDown() {
    StoreOnceReachable stores = StoreOnceReachable.tryingNow(this::open);

    assertFalse(stores.isOpen());
    assertThrows(StoreUnavailableException.class, () -> stores.sessions().find("ws-1"));
    assertFalse(stores.ready());
    assertEquals(3, openings.get(), "start-up, the read and the readiness check each tried");
  }

  @Test
  void onceTheDatabaseAnswersTheStoreOpensAndServesWithThePoliciesSeededMeanwhile() {
    StoreOnceReachable stores = StoreOnceReachable.tryingNow(this::open);
    StoredRecord policy =
        StoredRecord.global(RecordKind.POLICY, "policy-bounded-001", SampleRecords.policy());
    stores.seed(policy);

    down.set(null);

    assertTrue(stores.ready());
    assertTrue(stores.isOpen());
    assertTrue(database.records().find(RecordKind.POLICY, "policy-bounded-001").isPresent());
    assertEquals(2, openings.get(), "opened once, then kept");
  }

  @Test
  void aStoreThatOpensAtStartUpIsUsedAtOnce() {
    down.set(null);
    StoreOnceReachable stores = StoreOnceReachable.tryingNow(this::open);

    assertTrue(stores.isOpen());
    assertTrue(stores.sessions().find("ws-1").isEmpty());
    assertEquals(1, openings.get());
  }
}
