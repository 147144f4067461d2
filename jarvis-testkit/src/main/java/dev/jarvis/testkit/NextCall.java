package dev.jarvis.testkit;

import dev.jarvis.model.ProtocolErrorId;
import java.time.Duration;

/** What a test told the stub host to do with one coming call instead of answering normally. */
sealed interface NextCall {

  /** Refuse it with this {@code error_id}, changing nothing. */
  record Refuse(ProtocolErrorId errorId) implements NextCall {}

  /** Answer it with a transport fault, changing nothing. */
  record Inject(Fault fault) implements NextCall {}

  /** Answer it normally, but only after this delay. */
  record Delay(Duration delay) implements NextCall {}
}
