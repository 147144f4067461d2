package dev.jarvis.store.tck;

import java.util.Arrays;
import java.util.Optional;

/**
 * The catalogue of the store TCK: every rule {@link HostStoresContract} holds a store to, with its
 * id, its tier and whether it needs several host instances. Each test of the contract carries its
 * rule's id at the start of its display name ({@code "STORE-APPEND-2: ..."}), so a failing run
 * names the rule broken; {@code docs/store-tck.md} lists the same catalogue.
 */
public enum StoreRule {
  /** A WorkSession id is created once: a second genesis of it is a conflict that writes nothing. */
  SESSION_1(
      Tier.REQUIRED,
      Instances.ANY,
      "A WorkSession id is created once: a second genesis of it is a conflict that writes nothing."),
  /** Of concurrent geneses of one id, exactly one commits. */
  SESSION_2(Tier.REQUIRED, Instances.ANY, "Of concurrent geneses of one id, exactly one commits."),
  /**
   * An append at the current cursor writes the event, the new snapshot and the unit's records
   * together.
   */
  APPEND_1(
      Tier.REQUIRED,
      Instances.ANY,
      "An append at the current cursor writes the event, the new snapshot and the unit's records together."),
  /**
   * An append at a stale cursor (older or newer revision, another last event hash) is a conflict
   * that writes nothing, its idempotency claim included.
   */
  APPEND_2(
      Tier.REQUIRED,
      Instances.ANY,
      "An append at a stale cursor (older or newer revision, another last event hash) is a conflict that writes nothing, its idempotency claim included."),
  /** An append to an unknown WorkSession is a conflict that creates nothing. */
  APPEND_3(
      Tier.REQUIRED,
      Instances.ANY,
      "An append to an unknown WorkSession is a conflict that creates nothing."),
  /** Of concurrent appends at one cursor, exactly one commits and the chain stays verifiable. */
  APPEND_4(
      Tier.REQUIRED,
      Instances.ANY,
      "Of concurrent appends at one cursor, exactly one commits and the chain stays verifiable."),
  /** Contended writers that re-read and retry build one linear chain holding every event. */
  APPEND_5(
      Tier.REQUIRED,
      Instances.ANY,
      "Contended writers that re-read and retry build one linear chain holding every event."),
  /** A page of events holds the events after a sequence, in chain order, no more than the limit. */
  READ_1(
      Tier.REQUIRED,
      Instances.ANY,
      "A page of events holds the events after a sequence, in chain order, no more than the limit."),
  /** A sealed WorkSession takes no append and no second seal; its seal and manifest stay. */
  SEAL_1(
      Tier.REQUIRED,
      Instances.ANY,
      "A sealed WorkSession takes no append and no second seal; its seal and manifest stay."),
  /** A seal at a stale cursor is a conflict that writes nothing. */
  SEAL_2(
      Tier.REQUIRED, Instances.ANY, "A seal at a stale cursor is a conflict that writes nothing."),
  /**
   * A create-only record that exists already makes the whole mutation a conflict that writes
   * nothing.
   */
  ATOMIC_1(
      Tier.REQUIRED,
      Instances.ANY,
      "A create-only record that exists already makes the whole mutation a conflict that writes nothing."),
  /** A taken idempotency key writes nothing and answers the first response byte for byte. */
  IDEM_1(
      Tier.REQUIRED,
      Instances.ANY,
      "A taken idempotency key writes nothing and answers the first response byte for byte."),
  /**
   * Of concurrent claims of one key, one has its effect; every other gets the winner's response.
   */
  IDEM_2(
      Tier.REQUIRED,
      Instances.ANY,
      "Of concurrent claims of one key, one has its effect; every other gets the winner's response."),
  /** An expired idempotency record is not found, and its key can be claimed again. */
  RETAIN_1(
      Tier.REQUIRED,
      Instances.ANY,
      "An expired idempotency record is not found, and its key can be claimed again."),
  /**
   * Deleting expired idempotency records removes only expired ones, no more than the batch asks.
   */
  RETAIN_2(
      Tier.REQUIRED,
      Instances.ANY,
      "Deleting expired idempotency records removes only expired ones, no more than the batch asks."),
  /**
   * Records of two WorkSessions never see or replace each other; records outside WorkSessions have
   * their own space.
   */
  ISOLATE_1(
      Tier.REQUIRED,
      Instances.ANY,
      "Records of two WorkSessions never see or replace each other; records outside WorkSessions have their own space."),
  /** An Actor's WorkSessions are counted by creator and current status, on every handle. */
  COUNT_1(
      Tier.REQUIRED,
      Instances.ANY,
      "An Actor's WorkSessions are counted by creator and current status, on every handle."),
  /**
   * The Requests waiting on one human are found across WorkSessions by target and current status.
   */
  COUNT_2(
      Tier.REQUIRED,
      Instances.ANY,
      "The Requests waiting on one human are found across WorkSessions by target and current status."),
  /** A human's inbox pages its Requests across WorkSessions, by status, in write order. */
  INBOX_1(
      Tier.REQUIRED,
      Instances.ANY,
      "A human's inbox pages its Requests across WorkSessions, by status, in write order."),
  /** Open Requests past their expiry are found across WorkSessions, earliest first. */
  EXPIRY_1(
      Tier.REQUIRED,
      Instances.ANY,
      "Open Requests past their expiry are found across WorkSessions, earliest first."),
  /** An id another WorkSession holds makes the whole mutation a conflict. */
  ID_1(
      Tier.REQUIRED,
      Instances.ANY,
      "An id another WorkSession holds makes the whole mutation a conflict."),
  /** Of concurrent records of one id in many WorkSessions, exactly one commits. */
  ID_2(
      Tier.REQUIRED,
      Instances.ANY,
      "Of concurrent records of one id in many WorkSessions, exactly one commits."),
  /**
   * Host instances racing one id in many WorkSessions give one winner, and the losers the id's
   * refusal.
   */
  ID_3(
      Tier.REQUIRED,
      Instances.SEVERAL,
      "Host instances racing one id in many WorkSessions give one winner, and the losers the id's refusal."),
  /** Host instances sweeping Request expiries together write each expiry once. */
  SWEEP_1(
      Tier.REQUIRED,
      Instances.SEVERAL,
      "Host instances sweeping Request expiries together write each expiry once."),
  /**
   * A second instance sees every committed write of the first at once: WorkSessions, events,
   * records and idempotency keys.
   */
  INSTANCE_1(
      Tier.REQUIRED,
      Instances.SEVERAL,
      "A second instance sees every committed write of the first at once: WorkSessions, events, records and idempotency keys."),
  /** The WorkSession holding a record kind and id is found by one query. */
  QUERY_1(
      Tier.REQUIRED,
      Instances.ANY,
      "The WorkSession holding a record kind and id is found by one query."),
  /** Events and citations belong to their WorkSession. */
  QUERY_2(Tier.REQUIRED, Instances.ANY, "Events and citations belong to their WorkSession."),
  /** Records of a WorkSession come in first-write order, and by status. */
  QUERY_3(
      Tier.REQUIRED,
      Instances.ANY,
      "Records of a WorkSession come in first-write order, and by status."),
  /** A WorkSession is read with its records of the asked statuses, in first-write order. */
  QUERY_4(
      Tier.REQUIRED,
      Instances.ANY,
      "A WorkSession is read with its records of the asked statuses, in first-write order."),
  /** A WorkSession is read with which of the asked event ids its chain holds. */
  QUERY_5(
      Tier.REQUIRED,
      Instances.ANY,
      "A WorkSession is read with which of the asked event ids its chain holds."),
  /** An Actor is read with the Worker it names. */
  QUERY_6(Tier.REQUIRED, Instances.ANY, "An Actor is read with the Worker it names."),
  /** The Actors of a Worker are found by the Worker they name now. */
  QUERY_7(
      Tier.REQUIRED,
      Instances.ANY,
      "The Actors of a Worker are found by the Worker they name now."),
  /** Records outside WorkSessions are replaced by a put. */
  RECORD_1(Tier.REQUIRED, Instances.ANY, "Records outside WorkSessions are replaced by a put."),
  /** Stored JSON comes back as it went. */
  FIDELITY_1(Tier.REQUIRED, Instances.ANY, "Stored JSON comes back as it went."),
  /** Stored responses come back byte for byte. */
  FIDELITY_2(Tier.REQUIRED, Instances.ANY, "Stored responses come back byte for byte."),
  /**
   * An answer that is its unit's own event (appendJarvisEvent's) comes back byte for byte and
   * header for header, however the store keeps it; one that only resembles it comes back as it
   * went.
   */
  FIDELITY_3(
      Tier.REQUIRED,
      Instances.ANY,
      "An answer that is its unit's own event comes back byte for byte and header for header, and one that only resembles it as it went."),
  /** A unit's step runs once, inside the committed unit, and sees its event. */
  STEP_1(
      Tier.REQUIRED,
      Instances.ANY,
      "A unit's step runs once, inside the committed unit, and sees its event."),
  /** A step does not run when the unit's chain condition fails. */
  STEP_2(
      Tier.REQUIRED, Instances.ANY, "A step does not run when the unit's chain condition fails."),
  /** A step does not run when the unit's key is taken. */
  STEP_3(Tier.REQUIRED, Instances.ANY, "A step does not run when the unit's key is taken."),
  /** A failing step writes nothing of its unit, its claim included. */
  STEP_4(
      Tier.REQUIRED,
      Instances.ANY,
      "A failing step writes nothing of its unit, its claim included."),
  /**
   * A notification commits with its unit, never with a conflict or a taken key (stores with a
   * notification outbox).
   */
  OUTBOX_1(
      Tier.OPTIONAL,
      Instances.ANY,
      "A notification commits with its unit, never with a conflict or a taken key (stores with a notification outbox)."),
  /**
   * A lease keeps a notification one instance's until it runs out (stores with a notification
   * outbox).
   */
  OUTBOX_2(
      Tier.OPTIONAL,
      Instances.SEVERAL,
      "A lease keeps a notification one instance's until it runs out (stores with a notification outbox)."),
  /** Dead letters are listed and never claimed again (stores with a notification outbox). */
  OUTBOX_3(
      Tier.OPTIONAL,
      Instances.ANY,
      "Dead letters are listed and never claimed again (stores with a notification outbox)."),
  /**
   * Dispatchers of two instances deliver each notification once (stores with a notification
   * outbox).
   */
  OUTBOX_4(
      Tier.OPTIONAL,
      Instances.SEVERAL,
      "Dispatchers of two instances deliver each notification once (stores with a notification outbox).");

  /** Whether a store must keep a rule to pass the TCK. */
  public enum Tier {
    /** Every store keeps it. */
    REQUIRED,
    /**
     * Only a store with the feature the rule is about keeps it (a notification outbox); for others
     * the rule is reported as skipped.
     */
    OPTIONAL
  }

  /** Which stores a rule applies to, by {@link StoreTopology}. */
  public enum Instances {
    /**
     * Every store: under {@link StoreTopology#SINGLE_INSTANCE} its writers share the one instance.
     */
    ANY,
    /**
     * Stores several host instances share: skipped, not applicable, under {@link
     * StoreTopology#SINGLE_INSTANCE}.
     */
    SEVERAL
  }

  private final Tier tier;
  private final Instances instances;
  private final String statement;

  StoreRule(Tier tier, Instances instances, String statement) {
    this.tier = tier;
    this.instances = instances;
    this.statement = statement;
  }

  /** The rule's id, {@code STORE-<AREA>-<n>}: what test names and reports cite. */
  public String id() {
    return "STORE-" + name().replace('_', '-');
  }

  /** Whether every store keeps the rule, or only one with the feature it is about. */
  public Tier tier() {
    return tier;
  }

  /** Whether the rule needs several host instances on one store. */
  public Instances instances() {
    return instances;
  }

  /** What the rule holds a store to, in one sentence. */
  public String statement() {
    return statement;
  }

  /** Whether the rule applies to a store of {@code topology}. */
  public boolean appliesTo(StoreTopology topology) {
    return instances == Instances.ANY || topology == StoreTopology.SHARED;
  }

  /** The rule a test's display name cites at its start ({@code "STORE-SEAL-1: ..."}), if any. */
  public static Optional<StoreRule> citedBy(String displayName) {
    return Arrays.stream(values())
        .filter(rule -> displayName.startsWith(rule.id() + ":"))
        .findFirst();
  }
}
