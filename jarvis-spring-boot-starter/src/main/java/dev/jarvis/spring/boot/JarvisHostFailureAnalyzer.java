package dev.jarvis.spring.boot;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * A missing or invalid credentials or Policy file ends start-up with one line naming the property,
 * the file and the fix, instead of a stack of bean-creation exceptions.
 */
public final class JarvisHostFailureAnalyzer
    extends AbstractFailureAnalyzer<JarvisHostFileException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, JarvisHostFileException cause) {
    return new FailureAnalysis(
        "Jarvis host: " + cause.property() + " " + cause.file() + ": " + cause.problem(),
        "Jarvis host: " + cause.action() + ", or set jarvis.host.enabled=false.",
        cause);
  }
}
