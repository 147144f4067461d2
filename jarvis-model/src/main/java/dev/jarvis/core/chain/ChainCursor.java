package dev.jarvis.core.chain;

import dev.jarvis.core.canonical.Sha256Hash;
import java.util.Objects;

/**
 * Where a WorkSession's chain stands: its revision and the hash of its last event. A scoped
 * mutation sends both as {@code Jarvis-Expected-WorkSession-Revision} and {@code
 * Jarvis-Previous-Event-Hash}.
 *
 * <p>The revision equals the {@code sequence} of the last event: each accepted mutation appends
 * exactly one event and advances the revision by one.
 *
 * @param revision the WorkSession revision, 0 before genesis
 * @param lastEventHash the last event's hash, {@code hash:protocol-genesis} before genesis
 */
public record ChainCursor(long revision, String lastEventHash) {

  /** Before the WorkSession exists: revision 0 and the protocol genesis hash. */
  public static final ChainCursor GENESIS = new ChainCursor(0, Sha256Hash.GENESIS);

  public ChainCursor {
    if (revision < 0) {
      throw new IllegalArgumentException("revision must be >= 0: " + revision);
    }
    Objects.requireNonNull(lastEventHash, "lastEventHash");
  }

  /** The cursor after appending an event with this hash. */
  public ChainCursor advance(String eventHash) {
    return new ChainCursor(revision + 1, eventHash);
  }
}
