package dev.jarvis.store.tck;

/**
 * How many host instances share a store's data: the choice every {@link HostStoresContract} makes
 * explicitly ({@link HostStoresContract#topology()}), because the rules about instances can only be
 * checked against a store that several instances open.
 */
public enum StoreTopology {
  /**
   * One host instance holds the data (an in-memory store, an embedded file only one process opens).
   * The concurrent rules run with all their writers on the one instance; the rules about several
   * instances ({@link StoreRule.Instances#SEVERAL}) are reported as skipped, not applicable: never
   * as passed.
   */
  SINGLE_INSTANCE,
  /**
   * Several host instances share the data (a database server, a file several pools open): {@link
   * HostStoresContract#secondInstance} opens another handle on it, the concurrent rules spread
   * their writers over both handles, and every rule applies.
   */
  SHARED
}
