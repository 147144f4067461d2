package dev.jarvis.cli.load;

/** What each request of a load run does. Named as the spec's operations. */
public enum LoadOperation {
  /** Appends an event, built, hashed and chained as a correct agent would. */
  appendJarvisEvent,
  /** Records an {@code allow} PolicyDecision. */
  recordPolicyDecision,
  /** Reads the WorkSession. */
  getWorkSession
}
