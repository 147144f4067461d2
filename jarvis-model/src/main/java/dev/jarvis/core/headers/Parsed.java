package dev.jarvis.core.headers;

import dev.jarvis.core.error.JarvisProtocolException;
import dev.jarvis.core.error.ProtocolViolation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The outcome of parsing protocol header text: either the typed value, or every violation found (at
 * least one). Nothing is thrown until the caller asks for it with {@link #orElseThrow}.
 *
 * @param <T> the typed value
 */
public final class Parsed<T> {

  private final T value;
  private final List<ProtocolViolation> violations;

  private Parsed(T value, List<ProtocolViolation> violations) {
    this.value = value;
    this.violations = violations;
  }

  /** An accepted value. */
  public static <T> Parsed<T> accepted(T value) {
    return new Parsed<>(Objects.requireNonNull(value, "value"), List.of());
  }

  /** A refusal of one violation. */
  public static <T> Parsed<T> refused(ProtocolViolation violation) {
    return new Parsed<>(null, List.of(Objects.requireNonNull(violation, "violation")));
  }

  /** A refusal of several violations (at least one). */
  public static <T> Parsed<T> refused(List<ProtocolViolation> violations) {
    if (violations.isEmpty()) {
      throw new IllegalArgumentException("a refusal needs at least one violation");
    }
    return new Parsed<>(null, List.copyOf(violations));
  }

  /** Whether the text was accepted. */
  public boolean isAccepted() {
    return violations.isEmpty();
  }

  /** The typed value, if accepted. */
  public Optional<T> value() {
    return Optional.ofNullable(value);
  }

  /** Every violation found; empty if accepted. */
  public List<ProtocolViolation> violations() {
    return violations;
  }

  /** The first violation, if refused. */
  public Optional<ProtocolViolation> violation() {
    return violations.stream().findFirst();
  }

  /**
   * The typed value, or a {@link JarvisProtocolException} carrying every violation under the given
   * trace id.
   */
  public T orElseThrow(String traceId) {
    if (!isAccepted()) {
      throw JarvisProtocolException.of(violations, traceId);
    }
    return value;
  }

  /** The accepted value mapped; a refusal stays the same refusal. */
  public <U> Parsed<U> map(Function<? super T, ? extends U> f) {
    return isAccepted() ? accepted(f.apply(value)) : new Parsed<>(null, violations);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Parsed<?> p
        && Objects.equals(value, p.value)
        && violations.equals(p.violations);
  }

  @Override
  public int hashCode() {
    return Objects.hash(value, violations);
  }

  @Override
  public String toString() {
    return isAccepted() ? "Accepted[" + value + "]" : "Refused" + violations;
  }
}
