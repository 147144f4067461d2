package dev.jarvis.core.headers;

import dev.jarvis.core.OperationClass;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The protocol headers of one request: {@link MutationHeaders} for the mutation classes, {@link
 * ReadHeaders} for the read classes.
 */
public sealed interface RequestHeaders permits MutationHeaders, ReadHeaders {

  /** {@code Jarvis-Protocol-Version}. */
  ProtocolVersion protocolVersion();

  /** {@code Jarvis-Actor-Id}. */
  ActorId actorId();

  /** The headers as sent, in the spec's parameter order; absent optional headers are left out. */
  Map<String, String> toMap();

  /**
   * Parses the headers an operation of this class takes, returning every violation found. Headers
   * the class does not take are ignored, never refused.
   *
   * @param lookup a case-insensitive header lookup, e.g. {@link HeaderLookup#of}
   * @param clock the receiver's clock, for the freshness of a mutation's timestamp
   */
  static Parsed<RequestHeaders> parse(
      OperationClass operationClass, Function<String, Optional<String>> lookup, Clock clock) {
    return operationClass.isMutation()
        ? MutationHeaders.parse(operationClass, lookup, clock).map(h -> h)
        : ReadHeaders.parse(operationClass, lookup).map(h -> h);
  }
}
