package dev.jarvis.conformance;

import dev.jarvis.core.signature.ActorKey;
import dev.jarvis.core.signature.ActorKeys;
import dev.jarvis.core.signature.SigningKey;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/** The fixed clock and counting ids the conformance tests share, and a captured print stream. */
final class Fixtures {

  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-06-12T18:00:00Z"), ZoneOffset.UTC);

  private static final KeyPair SIGNER_PAIR = SigningKey.generateKeyPair();

  /** An Actor the test hosts require to sign, with its key, as the suite is told of it. */
  static final RequiredSigner SIGNER =
      new RequiredSigner(
          "actor-signer-1", new SigningKey("key-signer-1", SIGNER_PAIR.getPrivate()));

  /** The test hosts' Actor keys: the signer's public key, and the signer must sign. */
  static final ActorKeys SIGNER_KEYS =
      ActorKeys.of(
          List.of(ActorKey.of("key-signer-1", SIGNER.actorId(), SIGNER_PAIR.getPublic())),
          Set.of(SIGNER.actorId()));

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
