package dev.jarvis.host.internal;

/**
 * Where a {@link dev.jarvis.host.ProtocolListener}'s failure ends: logged at WARNING on {@code
 * dev.jarvis.host}, changing nothing about the answer or what was written.
 */
public final class ListenerFailures {

  private static final System.Logger LOG = System.getLogger("dev.jarvis.host");

  private ListenerFailures() {}

  /** Tells a listener, containing what it throws. */
  public static void contain(Runnable notification) {
    try {
      notification.run();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "a ProtocolListener failed", e);
    }
  }
}
