package dev.jarvis.conformance;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/** The fixed clock and counting ids the conformance tests share, and a captured print stream. */
final class Fixtures {

  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-06-12T18:00:00Z"), ZoneOffset.UTC);

  private Fixtures() {}

  static Supplier<String> counting(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return () -> prefix + n.incrementAndGet();
  }

  /** A print stream whose text can be read back. */
  static final class Captured {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final PrintStream stream = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    String text() {
      return bytes.toString(StandardCharsets.UTF_8);
    }
  }
}
