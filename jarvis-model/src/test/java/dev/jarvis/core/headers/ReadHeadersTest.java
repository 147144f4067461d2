package dev.jarvis.core.headers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.OperationClass;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.model.ProtocolErrorId;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ReadHeadersTest {

  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-06-12T18:00:00Z"), ZoneOffset.UTC);
  private static final ActorId ACTOR = new ActorId("actor-human-001");

  @ParameterizedTest(name = "a {0} needs only the protocol version and the actor")
  @EnumSource(
      value = OperationClass.class,
      names = {"WORKSESSION_SCOPED_READ", "EXPORT_READ"})
  void aReadDoesNotRequireMutationHeaders(OperationClass read) {
    Map<String, String> headers =
        Map.of(JarvisHeaders.PROTOCOL_VERSION, "v0.1", JarvisHeaders.ACTOR_ID, ACTOR.value());

    assertEquals(
        Parsed.accepted(ReadHeaders.of(ACTOR)), ReadHeaders.parse(read, HeaderLookup.of(headers)));
    assertInstanceOf(
        ReadHeaders.class,
        RequestHeaders.parse(read, HeaderLookup.of(headers), CLOCK).orElseThrow("trace:t"));
  }

  @ParameterizedTest(name = "a {0} ignores malformed mutation headers it does not take")
  @EnumSource(
      value = OperationClass.class,
      names = {"WORKSESSION_SCOPED_READ", "EXPORT_READ"})
  void aReadIgnoresMutationHeaders(OperationClass read) {
    Map<String, String> headers = new LinkedHashMap<>(ReadHeaders.of(ACTOR).toMap());
    headers.put(JarvisHeaders.IDEMPOTENCY_KEY, "");
    headers.put(JarvisHeaders.REQUEST_TIMESTAMP, "1999-01-01T00:00:00Z");
    headers.put(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION, "-1");
    assertTrue(RequestHeaders.parse(read, HeaderLookup.of(headers), CLOCK).isAccepted());
  }

  @Test
  void aReadWithoutHeadersMissesOnlyVersionAndActor() {
    Parsed<ReadHeaders> parsed =
        ReadHeaders.parse(OperationClass.WORKSESSION_SCOPED_READ, name -> Optional.empty());
    assertEquals(
        List.of(ProtocolErrorId.MISSING_PROTOCOL_VERSION, ProtocolErrorId.MISSING_ACTOR),
        parsed.violations().stream().map(ProtocolViolation::errorId).toList());
  }

  @Test
  void capabilitiesAndExtensionsRenderInOrderAndParseBack() {
    ReadHeaders headers =
        ReadHeaders.of(ACTOR)
            .withExtensions(ExtensionNamespaces.of("com.example.feature"))
            .withRequiredCapabilities(RequiredCapabilities.of("evidence.export", "streaming"));
    Map<String, String> map = headers.toMap();

    assertEquals(JarvisHeaders.READ, List.copyOf(map.keySet()));
    assertEquals("evidence.export, streaming", map.get(JarvisHeaders.REQUIRED_CAPABILITIES));
    assertEquals(
        Parsed.accepted(headers),
        ReadHeaders.parse(OperationClass.EXPORT_READ, HeaderLookup.of(map)));
  }

  @Test
  void badCapabilitiesAndExtensionsAreAllReported() {
    Map<String, String> headers = new LinkedHashMap<>(ReadHeaders.of(ACTOR).toMap());
    headers.put(JarvisHeaders.REQUIRED_CAPABILITIES, "a,,b");
    headers.put(JarvisHeaders.EXTENSIONS, "Example");
    assertEquals(
        List.of(
            ProtocolErrorId.UNSUPPORTED_CAPABILITY, ProtocolErrorId.INVALID_EXTENSION_NAMESPACE),
        ReadHeaders.parse(OperationClass.EXPORT_READ, HeaderLookup.of(headers))
            .violations()
            .stream()
            .map(ProtocolViolation::errorId)
            .toList());
  }

  @Test
  void aMutationClassIsNotARead() {
    assertThrows(
        IllegalArgumentException.class,
        () -> ReadHeaders.parse(OperationClass.NON_WORKSESSION_MUTATION, name -> Optional.empty()));
  }
}
