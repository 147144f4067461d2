package dev.jarvis.core.headers;

import static dev.jarvis.model.ProtocolErrorId.INVALID_EXTENSION_NAMESPACE;
import static dev.jarvis.model.ProtocolErrorId.MISSING_ACTOR;
import static dev.jarvis.model.ProtocolErrorId.MISSING_EXPECTED_WORK_SESSION_REVISION;
import static dev.jarvis.model.ProtocolErrorId.MISSING_IDEMPOTENCY_KEY;
import static dev.jarvis.model.ProtocolErrorId.MISSING_PREVIOUS_EVENT_HASH;
import static dev.jarvis.model.ProtocolErrorId.MISSING_PROTOCOL_VERSION;
import static dev.jarvis.model.ProtocolErrorId.MISSING_REQUEST_TIMESTAMP;
import static dev.jarvis.model.ProtocolErrorId.UNSUPPORTED_CAPABILITY;
import static dev.jarvis.model.ProtocolErrorId.UNSUPPORTED_PROTOCOL_VERSION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.model.ProtocolErrorId;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each header on its own: absent, empty and malformed text, and what is accepted. */
class HeaderParsingTest {

  /** A header and its parser. */
  private record Header(String name, Function<Optional<String>, Parsed<?>> parse) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final Header VERSION =
      new Header(JarvisHeaders.PROTOCOL_VERSION, ProtocolVersion::parse);
  private static final Header ACTOR = new Header(JarvisHeaders.ACTOR_ID, ActorId::parse);
  private static final Header KEY =
      new Header(JarvisHeaders.IDEMPOTENCY_KEY, IdempotencyKey::parse);
  private static final Header TIMESTAMP =
      new Header(JarvisHeaders.REQUEST_TIMESTAMP, RequestTimestamp::parse);
  private static final Header REVISION =
      new Header(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION, ExpectedRevision::parse);
  private static final Header PREVIOUS =
      new Header(JarvisHeaders.PREVIOUS_EVENT_HASH, PreviousEventHash::parse);
  private static final Header CAPABILITIES =
      new Header(JarvisHeaders.REQUIRED_CAPABILITIES, RequiredCapabilities::parse);
  private static final Header EXTENSIONS =
      new Header(JarvisHeaders.EXTENSIONS, ExtensionNamespaces::parse);
  private static final Header HOST_CAPABILITIES =
      new Header(JarvisHeaders.HOST_CAPABILITIES, HostCapabilities::parse);

  private static final String ABSENT = null;

  private static Arguments refusal(
      String sentence, Header header, String raw, ProtocolErrorId id, String reasonSays) {
    return Arguments.of(sentence, header, raw, id, reasonSays);
  }

  static Stream<Arguments> refusals() {
    return Stream.of(
        refusal(
            "an absent protocol version", VERSION, ABSENT, MISSING_PROTOCOL_VERSION, "is absent"),
        refusal("an empty protocol version", VERSION, "", MISSING_PROTOCOL_VERSION, "is empty"),
        refusal("a blank protocol version", VERSION, " \t ", MISSING_PROTOCOL_VERSION, "is empty"),
        refusal(
            "protocol version v0.2", VERSION, "v0.2", UNSUPPORTED_PROTOCOL_VERSION, "is not v0.1"),
        refusal(
            "protocol version V0.1", VERSION, "V0.1", UNSUPPORTED_PROTOCOL_VERSION, "is not v0.1"),
        refusal(
            "protocol version 0.1", VERSION, "0.1", UNSUPPORTED_PROTOCOL_VERSION, "is not v0.1"),
        refusal("an absent actor", ACTOR, ABSENT, MISSING_ACTOR, "is absent"),
        refusal("an empty actor", ACTOR, "", MISSING_ACTOR, "is empty"),
        refusal("an actor starting with '-'", ACTOR, "-actor", MISSING_ACTOR, "is malformed"),
        refusal("an actor with a space", ACTOR, "actor 1", MISSING_ACTOR, "is malformed"),
        refusal("an actor with a slash", ACTOR, "actor/1", MISSING_ACTOR, "not a Jarvis id"),
        refusal("a 161-character actor", ACTOR, "a".repeat(161), MISSING_ACTOR, "longer than 160"),
        refusal("an absent idempotency key", KEY, ABSENT, MISSING_IDEMPOTENCY_KEY, "is absent"),
        refusal("an empty idempotency key", KEY, "", MISSING_IDEMPOTENCY_KEY, "is empty"),
        refusal("a blank idempotency key", KEY, "\t", MISSING_IDEMPOTENCY_KEY, "is empty"),
        refusal(
            "a key with a control character",
            KEY,
            "k\u0000y",
            MISSING_IDEMPOTENCY_KEY,
            "is malformed"),
        refusal(
            "a key with a non-ASCII letter", KEY, "clé", MISSING_IDEMPOTENCY_KEY, "is malformed"),
        refusal("an absent timestamp", TIMESTAMP, ABSENT, MISSING_REQUEST_TIMESTAMP, "is absent"),
        refusal("an empty timestamp", TIMESTAMP, "", MISSING_REQUEST_TIMESTAMP, "is empty"),
        refusal(
            "a timestamp in words",
            TIMESTAMP,
            "yesterday",
            MISSING_REQUEST_TIMESTAMP,
            "is malformed"),
        refusal(
            "a timestamp without seconds",
            TIMESTAMP,
            "2026-06-12T18:00Z",
            MISSING_REQUEST_TIMESTAMP,
            "no seconds"),
        refusal(
            "an absent revision",
            REVISION,
            ABSENT,
            MISSING_EXPECTED_WORK_SESSION_REVISION,
            "is absent"),
        refusal(
            "an empty revision", REVISION, "", MISSING_EXPECTED_WORK_SESSION_REVISION, "is empty"),
        refusal(
            "a revision in words",
            REVISION,
            "three",
            MISSING_EXPECTED_WORK_SESSION_REVISION,
            "not a non-negative decimal integer"),
        refusal(
            "a fractional revision",
            REVISION,
            "1.5",
            MISSING_EXPECTED_WORK_SESSION_REVISION,
            "not a non-negative decimal integer"),
        refusal(
            "a revision in exponent form",
            REVISION,
            "1e3",
            MISSING_EXPECTED_WORK_SESSION_REVISION,
            "not a non-negative decimal integer"),
        refusal(
            "a revision with a plus sign",
            REVISION,
            "+1",
            MISSING_EXPECTED_WORK_SESSION_REVISION,
            "not a non-negative decimal integer"),
        refusal(
            "a negative revision",
            REVISION,
            "-1",
            MISSING_EXPECTED_WORK_SESSION_REVISION,
            "is negative"),
        refusal(
            "a revision with leading zeros",
            REVISION,
            "007",
            MISSING_EXPECTED_WORK_SESSION_REVISION,
            "leading zeros"),
        refusal(
            "a 16-digit revision",
            REVISION,
            "1000000000000000",
            MISSING_EXPECTED_WORK_SESSION_REVISION,
            "more than 15 digits"),
        refusal(
            "an absent previous hash", PREVIOUS, ABSENT, MISSING_PREVIOUS_EVENT_HASH, "is absent"),
        refusal("an empty previous hash", PREVIOUS, "", MISSING_PREVIOUS_EVENT_HASH, "is empty"),
        refusal(
            "a previous hash with a line break",
            PREVIOUS,
            "sha256:ab\ncd",
            MISSING_PREVIOUS_EVENT_HASH,
            "is malformed"),
        refusal(
            "empty required capabilities",
            CAPABILITIES,
            "",
            UNSUPPORTED_CAPABILITY,
            "present but empty"),
        refusal(
            "an empty capability between two",
            CAPABILITIES,
            "a,,b",
            UNSUPPORTED_CAPABILITY,
            "empty entry at position 2"),
        refusal(
            "a trailing comma in capabilities",
            CAPABILITIES,
            "a, ",
            UNSUPPORTED_CAPABILITY,
            "empty entry at position 2"),
        refusal(
            "a capability with a space inside",
            CAPABILITIES,
            "a b",
            UNSUPPORTED_CAPABILITY,
            "entry 1 is malformed"),
        refusal(
            "a capability with a semicolon",
            CAPABILITIES,
            "ok, a;b",
            UNSUPPORTED_CAPABILITY,
            "entry 2 is malformed"),
        refusal(
            "empty host capabilities",
            HOST_CAPABILITIES,
            " ",
            UNSUPPORTED_CAPABILITY,
            "present but empty"),
        refusal(
            "empty extensions", EXTENSIONS, "", INVALID_EXTENSION_NAMESPACE, "present but empty"),
        refusal(
            "an empty extension entry",
            EXTENSIONS,
            "com.example.a,,com.example.b",
            INVALID_EXTENSION_NAMESPACE,
            "empty entry at position 2"),
        refusal(
            "an extension without a dot",
            EXTENSIONS,
            "acme",
            INVALID_EXTENSION_NAMESPACE,
            "entry 1 is malformed"),
        refusal(
            "an upper-case extension",
            EXTENSIONS,
            "Com.example",
            INVALID_EXTENSION_NAMESPACE,
            "lowercase dot-separated"),
        refusal(
            "an extension with an empty segment",
            EXTENSIONS,
            "com..example",
            INVALID_EXTENSION_NAMESPACE,
            "lowercase dot-separated"),
        refusal(
            "an extension naming host-private data",
            EXTENSIONS,
            "com.example.billing",
            INVALID_EXTENSION_NAMESPACE,
            "reserved for host-private data"));
  }

  @ParameterizedTest(name = "{0} is refused as {3}")
  @MethodSource("refusals")
  void eachHeaderRefusesWithItsErrorIdAndAReasonThatSaysWhy(
      String sentence, Header header, String raw, ProtocolErrorId id, String reasonSays) {
    Parsed<?> parsed = header.parse().apply(Optional.ofNullable(raw));
    assertTrue(!parsed.isAccepted(), sentence);
    ProtocolViolation v = parsed.violation().orElseThrow();
    assertEquals(id, v.errorId());
    assertEquals("header", v.objectType());
    assertEquals(header.name(), v.field());
    assertTrue(v.reason().startsWith(header.name() + " "), v.reason());
    assertTrue(v.reason().contains(reasonSays), v.reason());
    if (raw != null && raw.length() > 3) {
      assertTrue(!v.reason().contains(raw.strip()), "the reason echoes the text: " + v.reason());
    }
  }

  static Stream<Arguments> acceptances() {
    return Stream.of(
        Arguments.of("v0.1 with surrounding spaces", VERSION, " v0.1 ", ProtocolVersion.V0_1),
        Arguments.of("a 160-character actor", ACTOR, "a".repeat(160), new ActorId("a".repeat(160))),
        Arguments.of(
            "an actor with . _ : -",
            ACTOR,
            "actor.human_01:x-y",
            new ActorId("actor.human_01:x-y")),
        Arguments.of(
            "a key with inner spaces", KEY, "retry 1 of x", new IdempotencyKey("retry 1 of x")),
        Arguments.of(
            "a UTC timestamp",
            TIMESTAMP,
            "2026-06-12T18:00:00Z",
            new RequestTimestamp(Instant.parse("2026-06-12T18:00:00Z"))),
        Arguments.of("revision 0", REVISION, "0", ExpectedRevision.GENESIS),
        Arguments.of(
            "the largest revision",
            REVISION,
            "999999999999999",
            new ExpectedRevision(ExpectedRevision.MAX)),
        Arguments.of(
            "the genesis hash", PREVIOUS, "hash:protocol-genesis", PreviousEventHash.GENESIS),
        Arguments.of("absent required capabilities", CAPABILITIES, ABSENT, Optional.empty()),
        Arguments.of(
            "trimmed capabilities, a repeat counted once",
            CAPABILITIES,
            " a , b,a ",
            Optional.of(RequiredCapabilities.of("a", "b"))),
        Arguments.of("absent extensions", EXTENSIONS, ABSENT, Optional.empty()),
        Arguments.of(
            "two extension namespaces",
            EXTENSIONS,
            "com.example.feature,org.acme.x_y-z",
            Optional.of(ExtensionNamespaces.of("com.example.feature", "org.acme.x_y-z"))),
        Arguments.of(
            "host capabilities",
            HOST_CAPABILITIES,
            "evidence.export, streaming",
            Optional.of(HostCapabilities.of("evidence.export", "streaming"))));
  }

  @ParameterizedTest(name = "{0} is accepted")
  @MethodSource("acceptances")
  void wellFormedHeadersAreAccepted(String sentence, Header header, String raw, Object expected) {
    Parsed<?> parsed = header.parse().apply(Optional.ofNullable(raw));
    assertEquals(Optional.of(expected), parsed.value(), sentence + ": " + parsed);
  }

  @Test
  void everyBadListEntryIsReportedNotOnlyTheFirst() {
    Parsed<?> parsed = ExtensionNamespaces.parse(Optional.of("Bad, ,com.example.ok,worse"));
    assertEquals(3, parsed.violations().size(), parsed.toString());
  }

  @Test
  void requiredCapabilitiesTheHostLacksAreUnsupported() {
    RequiredCapabilities required = RequiredCapabilities.of("a", "b", "c");
    assertEquals(java.util.Set.of("b", "c"), required.unsupportedBy(java.util.Set.of("a")));
    ProtocolViolation v = required.checkSupportedBy(java.util.Set.of("a")).orElseThrow();
    assertEquals(UNSUPPORTED_CAPABILITY, v.errorId());
    assertEquals("The host does not support the required capabilities b, c.", v.reason());
    assertEquals(Optional.empty(), required.checkSupportedBy(java.util.Set.of("c", "b", "a")));
  }
}
