package dev.jarvis.core.headers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.Fuzz;
import dev.jarvis.core.FuzzJson;
import dev.jarvis.core.FuzzRandom;
import dev.jarvis.core.OperationClass;
import dev.jarvis.core.error.ProtocolViolation;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Junk header values (any Unicode, controls, lone surrogates, near misses of valid values, long
 * text, lists of commas) are accepted or refused as a {@link Parsed} refusal naming the header,
 * with a spec {@code error_id}; no parser ever throws.
 */
@DisplayName("Header parser properties")
class HeaderParserPropertyTest {

  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-06-12T18:00:00Z"), ZoneOffset.UTC);

  /** A header and its parser. */
  record Header(String name, Function<Optional<String>, Parsed<?>> parse) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final List<Header> HEADERS =
      List.of(
          new Header(JarvisHeaders.PROTOCOL_VERSION, ProtocolVersion::parse),
          new Header(JarvisHeaders.ACTOR_ID, ActorId::parse),
          new Header(JarvisHeaders.IDEMPOTENCY_KEY, IdempotencyKey::parse),
          new Header(JarvisHeaders.REQUEST_TIMESTAMP, RequestTimestamp::parse),
          new Header(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION, ExpectedRevision::parse),
          new Header(JarvisHeaders.PREVIOUS_EVENT_HASH, PreviousEventHash::parse),
          new Header(JarvisHeaders.REQUIRED_CAPABILITIES, RequiredCapabilities::parse),
          new Header(JarvisHeaders.EXTENSIONS, ExtensionNamespaces::parse),
          new Header(JarvisHeaders.HOST_CAPABILITIES, HostCapabilities::parse));

  /** Valid values of every header, to miss by one edit. */
  private static final List<String> VALID =
      List.of(
          "v0.1",
          "actor-agent-1",
          "idem-7f3c9a",
          "2026-06-12T18:00:00Z",
          "2026-06-12t18:04:59.123456789-00:00",
          "0",
          "999999999999999",
          "hash:protocol-genesis",
          "sha256:" + "0123456789abcdef".repeat(4),
          "cursor-headers",
          "cursor-headers, streaming",
          "com.example.feature",
          "com.example.a,org.example.b");

  /** Junk for one header: absent, any text, near misses of valid values, separators, long text. */
  private static Optional<String> junk(FuzzRandom random) {
    return switch (random.weighted(1, 4, 3, 4, 1, 1)) {
      case 0 -> Optional.empty();
      case 1 -> Optional.of(FuzzJson.text(random));
      case 2 -> Optional.of(random.chars(' ', '~', 80));
      case 3 -> Optional.of(nearMiss(random));
      case 4 -> Optional.of(random.charsOf(" \t,\r\n\u0000\u00a0;=", 8));
      // Long text as a short piece repeated: the parsers' cost grows with length, not variety.
      default -> Optional.of(random.chars('\u0000', '\u007f', 1, 8).repeat(2_500));
    };
  }

  /** A valid value with one character put in, taken out or changed, or padded, or upper-cased. */
  private static String nearMiss(FuzzRandom random) {
    String valid = random.oneOf(VALID);
    int edit = random.between(0, 4);
    int i = random.between(0, valid.length());
    String text = FuzzJson.text(random);
    while (text.isEmpty()) {
      text = FuzzJson.text(random);
    }
    return switch (edit) {
      case 0 -> valid.substring(0, i) + text + valid.substring(i);
      case 1 -> i < valid.length() ? valid.substring(0, i) + valid.substring(i + 1) : valid;
      case 2 ->
          i < valid.length()
              ? valid.substring(0, i) + text.charAt(0) + valid.substring(i + 1)
              : valid + text;
      case 3 -> " \t" + valid + "\t ";
      default -> valid.toUpperCase(Locale.ROOT);
    };
  }

  /**
   * Every header's name as the spec writes it and in lower case, and one the spec does not name.
   */
  private static final List<String> HEADER_NAMES = headerNames();

  private static List<String> headerNames() {
    List<String> names = new ArrayList<>();
    for (Header h : HEADERS) {
      names.add(h.name());
      names.add(h.name().toLowerCase(Locale.ROOT));
    }
    names.add("Authorization");
    return List.copyOf(names);
  }

  /** Up to ten request headers, each name once, each value junk (absent as empty). */
  private static Map<String, String> headerSet(FuzzRandom random) {
    Map<String, String> sent = new HashMap<>();
    int size = random.between(0, 10);
    while (sent.size() < size) {
      sent.put(random.oneOf(HEADER_NAMES), junk(random).orElse(""));
    }
    return sent;
  }

  /** One header with a junk value: the sample of the first property. */
  private record HeaderValue(Header header, Optional<String> raw) {
    static HeaderValue of(FuzzRandom random) {
      return new HeaderValue(random.oneOf(HEADERS), junk(random));
    }
  }

  @Test
  @DisplayName("any text of any header is accepted or refused naming that header, never thrown")
  void anyHeaderTextIsAcceptedOrRefusedNamingThatHeader(TestInfo test) {
    Fuzz.forAll(
        test,
        2000,
        HeaderValue::of,
        sample -> {
          Set<String> name = Set.of(sample.header().name());
          Parsed<?> parsed = sample.header().parse().apply(sample.raw());
          if (parsed.isAccepted()) {
            assertTrue(parsed.value().isPresent());
            if (parsed.value().get() instanceof RequestTimestamp t) {
              t.checkFreshness(CLOCK).ifPresent(v -> assertHeaderViolation(v, name));
            }
          } else {
            parsed.violations().forEach(v -> assertHeaderViolation(v, name));
          }
        });
  }

  /** Request headers sent for an operation of some class. */
  private record HeaderSet(OperationClass operationClass, Map<String, String> sent) {
    static HeaderSet of(FuzzRandom random) {
      return new HeaderSet(random.oneOf(OperationClass.class), headerSet(random));
    }
  }

  @Test
  @DisplayName("any set of request headers parses, or is refused header by header, never thrown")
  void anyHeaderSetIsParsedOrRefusedHeaderByHeader(TestInfo test) {
    Set<String> names = new HashSet<>(JarvisHeaders.MUTATION);
    names.addAll(JarvisHeaders.READ);
    Fuzz.forAll(
        test,
        500,
        HeaderSet::of,
        sample -> {
          Function<String, Optional<String>> lookup = HeaderLookup.of(sample.sent());
          Parsed<?> parsed =
              sample.operationClass().isMutation()
                  ? MutationHeaders.parse(sample.operationClass(), lookup, CLOCK)
                  : ReadHeaders.parse(sample.operationClass(), lookup);
          assertEquals(parsed.isAccepted(), parsed.violations().isEmpty());
          parsed.violations().forEach(v -> assertHeaderViolation(v, names));
          ResponseHeaders.parse(lookup)
              .violations()
              .forEach(v -> assertHeaderViolation(v, Set.copyOf(JarvisHeaders.RESPONSE)));
        });
  }

  @Test
  @DisplayName("the namespace form is checked exactly as its regular expression says")
  void theNamespaceFormIsItsRegularExpression(TestInfo test) {
    Fuzz.forAll(
        test,
        2000,
        random -> random.charsOf("abz09-_.A ", 12),
        namespace ->
            assertEquals(
                namespace.matches(ExtensionNamespaces.PATTERN),
                ExtensionNamespaces.hasForm(namespace)));
  }

  /**
   * java.util.regex overflowed the stack on the namespace pattern for a few thousand segments; the
   * form is now checked without it.
   */
  @Test
  @DisplayName("a namespace of thousands of segments is judged, never a stack overflow")
  void aNamespaceOfThousandsOfSegmentsIsJudged(TestInfo test) {
    Fuzz.forAll(
        test,
        20,
        random -> "td.".repeat(random.between(1_000, 20_000)) + (random.coin() ? "" : "td"),
        namespace -> {
          Parsed<?> parsed = ExtensionNamespaces.parse(Optional.of(namespace));
          assertEquals(!namespace.endsWith("."), parsed.isAccepted(), parsed::toString);
        });
  }

  private static void assertHeaderViolation(ProtocolViolation v, Set<String> headerNames) {
    assertTrue(v.isHeader(), v::toString);
    assertTrue(headerNames.contains(v.field()), v::toString);
    assertTrue(FuzzJson.SPEC_ERROR_IDS.contains(v.errorId().getValue()), v::toString);
    assertFalse(v.reason().isBlank(), v::toString);
    assertFalse(v.remediation().isBlank(), v::toString);
  }
}
