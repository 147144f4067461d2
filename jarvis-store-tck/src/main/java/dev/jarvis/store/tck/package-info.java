/**
 * The store TCK: {@link dev.jarvis.store.tck.HostStoresContract}, an abstract JUnit 5 suite that a
 * store implementation extends to check that it keeps the host kit's store contract (conditional
 * append, one winner under concurrency, all-or-nothing, idempotency claims, retention, isolation).
 */
package dev.jarvis.store.tck;
