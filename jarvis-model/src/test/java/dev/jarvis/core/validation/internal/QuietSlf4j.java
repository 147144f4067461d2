package dev.jarvis.core.validation.internal;

import java.util.ServiceLoader;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * Keeps SLF4J from printing {@code SLF4J(W): No SLF4J providers were found} (three lines on stderr)
 * in an application that has no SLF4J backend. The JSON Schema validator logs through SLF4J; the
 * SDK itself logs through {@code System.Logger} and forces no backend on its users.
 *
 * <p>Only when no provider is on the class path, and only for SLF4J's own initialisation: with no
 * provider the only things SLF4J could report are that there is none and that it falls back to
 * no-operation logging, which is exactly what the application chose. An application that has a
 * backend, or has set {@value #VERBOSITY} itself, is left alone.
 */
final class QuietSlf4j {

  static final String VERBOSITY = "slf4j.internal.verbosity";

  private QuietSlf4j() {}

  /** Initialises SLF4J before the validator's classes do, quietly if there is no backend. */
  static synchronized void initialise() {
    ClassLoader loader = QuietSlf4j.class.getClassLoader();
    // On the module path the tests run inside dev.jarvis.model, which declares no `uses` for SLF4J:
    // the reference validator is test scope only.
    QuietSlf4j.class.getModule().addUses(SLF4JServiceProvider.class);
    boolean noProvider =
        ServiceLoader.load(SLF4JServiceProvider.class, loader).findFirst().isEmpty();
    if (!noProvider || System.getProperty(VERBOSITY) != null) {
      return;
    }
    System.setProperty(VERBOSITY, "ERROR");
    try {
      LoggerFactory.getILoggerFactory();
    } finally {
      System.clearProperty(VERBOSITY);
    }
  }
}
