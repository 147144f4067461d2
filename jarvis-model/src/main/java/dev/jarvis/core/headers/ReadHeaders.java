package dev.jarvis.core.headers;

import dev.jarvis.core.OperationClass;
import dev.jarvis.core.error.ProtocolViolation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The headers of a read ({@code worksession_scoped_read}, {@code export_read}): protocol version
 * and Actor, plus the optional required capabilities and extension namespaces. Reads never require
 * a mutation header; {@link #parse} ignores any that are sent.
 *
 * @param protocolVersion {@code Jarvis-Protocol-Version}
 * @param actorId {@code Jarvis-Actor-Id}
 * @param requiredCapabilities {@code Jarvis-Required-Capabilities}, if sent
 * @param extensions {@code Jarvis-Extensions}, if sent
 */
public record ReadHeaders(
    ProtocolVersion protocolVersion,
    ActorId actorId,
    Optional<RequiredCapabilities> requiredCapabilities,
    Optional<ExtensionNamespaces> extensions)
    implements RequestHeaders {

  public ReadHeaders {
    Objects.requireNonNull(protocolVersion, "protocolVersion");
    Objects.requireNonNull(actorId, "actorId");
    Objects.requireNonNull(requiredCapabilities, "requiredCapabilities");
    Objects.requireNonNull(extensions, "extensions");
  }

  /** Read headers with neither required capabilities nor extensions. */
  public static ReadHeaders of(ActorId actorId) {
    return new ReadHeaders(ProtocolVersion.V0_1, actorId, Optional.empty(), Optional.empty());
  }

  /** The same headers requiring these capabilities. */
  public ReadHeaders withRequiredCapabilities(RequiredCapabilities capabilities) {
    return new ReadHeaders(protocolVersion, actorId, Optional.of(capabilities), extensions);
  }

  /** The same headers requesting these extension namespaces. */
  public ReadHeaders withExtensions(ExtensionNamespaces namespaces) {
    return new ReadHeaders(protocolVersion, actorId, requiredCapabilities, Optional.of(namespaces));
  }

  @Override
  public Map<String, String> toMap() {
    Map<String, String> map = new LinkedHashMap<>();
    map.put(JarvisHeaders.PROTOCOL_VERSION, protocolVersion.headerValue());
    map.put(JarvisHeaders.ACTOR_ID, actorId.headerValue());
    requiredCapabilities.ifPresent(
        c -> map.put(JarvisHeaders.REQUIRED_CAPABILITIES, c.headerValue()));
    extensions.ifPresent(e -> map.put(JarvisHeaders.EXTENSIONS, e.headerValue()));
    return Collections.unmodifiableMap(map);
  }

  /**
   * Parses the headers of a read, returning every violation found.
   *
   * @param operationClass a read class
   * @param lookup a case-insensitive header lookup, e.g. {@link HeaderLookup#of}
   * @throws IllegalArgumentException if the class is a mutation
   */
  public static Parsed<ReadHeaders> parse(
      OperationClass operationClass, Function<String, Optional<String>> lookup) {
    if (operationClass.isMutation()) {
      throw new IllegalArgumentException(
          operationClass.wireName() + " is a mutation: parse its headers with MutationHeaders");
    }
    List<ProtocolViolation> violations = new ArrayList<>();
    ProtocolVersion version =
        HeaderText.collect(
            ProtocolVersion.parse(HeaderText.get(lookup, JarvisHeaders.PROTOCOL_VERSION)),
            violations);
    ActorId actor =
        HeaderText.collect(
            ActorId.parse(HeaderText.get(lookup, JarvisHeaders.ACTOR_ID)), violations);
    Optional<RequiredCapabilities> capabilities =
        HeaderText.collect(
            RequiredCapabilities.parse(HeaderText.get(lookup, JarvisHeaders.REQUIRED_CAPABILITIES)),
            violations);
    Optional<ExtensionNamespaces> extensions =
        HeaderText.collect(
            ExtensionNamespaces.parse(HeaderText.get(lookup, JarvisHeaders.EXTENSIONS)),
            violations);
    if (!violations.isEmpty()) {
      return Parsed.refused(violations);
    }
    return Parsed.accepted(new ReadHeaders(version, actor, capabilities, extensions));
  }
}
