package dev.jarvis.core.exchange;

import dev.jarvis.core.headers.ExpectedRevision;
import dev.jarvis.core.headers.PreviousEventHash;
import java.util.Objects;

/**
 * Where a WorkSession mutation expects the WorkSession to be: its revision and last event hash, as
 * {@code Jarvis-Expected-WorkSession-Revision} and {@code Jarvis-Previous-Event-Hash} said.
 *
 * @param revision the expected revision
 * @param previousEventHash the expected last event hash
 */
public record ExpectedCursor(ExpectedRevision revision, PreviousEventHash previousEventHash) {

  public ExpectedCursor {
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(previousEventHash, "previousEventHash");
  }
}
