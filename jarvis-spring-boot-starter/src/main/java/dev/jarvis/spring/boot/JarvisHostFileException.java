package dev.jarvis.spring.boot;

/**
 * A file the host is configured with is missing or does not hold what it must: which property,
 * which file, what is wrong and what to do, for {@link JarvisHostFailureAnalyzer}'s one-line
 * report.
 */
public final class JarvisHostFileException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String property;
  private final String file;
  private final String problem;
  private final String action;

  public JarvisHostFileException(
      String property, String file, String problem, String action, Throwable cause) {
    super(property + ": " + file + ": " + problem, cause);
    this.property = property;
    this.file = file;
    this.problem = problem;
    this.action = action;
  }

  /** The property that names the file. */
  public String property() {
    return property;
  }

  /** The file, as Spring describes its location. */
  public String file() {
    return file;
  }

  /** What is wrong with it. */
  public String problem() {
    return problem;
  }

  /** What to do about it. */
  public String action() {
    return action;
  }
}
