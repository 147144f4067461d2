package dev.jarvis.host.reference;

import java.util.Locale;

/**
 * The HTTP runtime the reference host serves on. Both answer through the same host kit; they differ
 * in speed and in which limits they hold (docs/host.md, "Limits").
 */
public enum HttpRuntime {
  /** The host kit's thin Undertow binding ({@code jarvis-host-undertow}): the default. */
  UNDERTOW,
  /**
   * The JAX-RS binding ({@code jarvis-server-stubs}) on Jersey and the JDK HTTP server: the way a
   * host team plugs the kit into its own JAX-RS application.
   */
  JERSEY;

  /** The name {@code serve --runtime} takes. */
  public String optionName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
