package dev.jarvis.core.headers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.OperationClass;
import dev.jarvis.core.error.JarvisProtocolException;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.model.ProtocolErrorId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class MutationHeadersTest {

  private static final Instant NOW = Instant.parse("2026-06-12T18:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  private static final Function<String, Optional<String>> NO_HEADERS = name -> Optional.empty();

  private static final ActorId ACTOR = new ActorId("actor-human-001");
  private static final IdempotencyKey KEY = new IdempotencyKey("key-0001");
  private static final RequestTimestamp STAMP = new RequestTimestamp(NOW);

  private static Map<String, String> scopedHeaders() {
    return new LinkedHashMap<>(
        MutationHeaders.of(
                ACTOR, KEY, STAMP, new ExpectedRevision(3), new PreviousEventHash("sha256:abc"))
            .toMap());
  }

  private static List<ProtocolErrorId> ids(Parsed<?> parsed) {
    return parsed.violations().stream().map(ProtocolViolation::errorId).toList();
  }

  @Test
  void theGenesisClassRequiresAllSixMutationHeaders() {
    Parsed<MutationHeaders> parsed =
        MutationHeaders.parse(OperationClass.WORKSESSION_GENESIS_MUTATION, NO_HEADERS, CLOCK);

    assertEquals(
        List.of(
            ProtocolErrorId.MISSING_PROTOCOL_VERSION,
            ProtocolErrorId.MISSING_ACTOR,
            ProtocolErrorId.MISSING_IDEMPOTENCY_KEY,
            ProtocolErrorId.MISSING_REQUEST_TIMESTAMP,
            ProtocolErrorId.MISSING_EXPECTED_WORK_SESSION_REVISION,
            ProtocolErrorId.MISSING_PREVIOUS_EVENT_HASH),
        ids(parsed));
    assertEquals(
        JarvisHeaders.MUTATION,
        parsed.violations().stream().map(ProtocolViolation::field).toList());
    assertTrue(parsed.violations().stream().allMatch(ProtocolViolation::isHeader));
  }

  @Test
  void aScopedMutationRequiresAllSixToo() {
    assertEquals(
        6,
        MutationHeaders.parse(OperationClass.WORKSESSION_SCOPED_MUTATION, NO_HEADERS, CLOCK)
            .violations()
            .size());
  }

  @Test
  void aNonWorkSessionMutationRequiresFourAndIgnoresTheCursor() {
    assertEquals(
        List.of(
            ProtocolErrorId.MISSING_PROTOCOL_VERSION,
            ProtocolErrorId.MISSING_ACTOR,
            ProtocolErrorId.MISSING_IDEMPOTENCY_KEY,
            ProtocolErrorId.MISSING_REQUEST_TIMESTAMP),
        ids(MutationHeaders.parse(OperationClass.NON_WORKSESSION_MUTATION, NO_HEADERS, CLOCK)));

    Map<String, String> headers = scopedHeaders();
    headers.put(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION, "-1");
    MutationHeaders parsed =
        MutationHeaders.parse(
                OperationClass.NON_WORKSESSION_MUTATION, HeaderLookup.of(headers), CLOCK)
            .orElseThrow("trace:t");
    assertEquals(MutationHeaders.of(ACTOR, KEY, STAMP), parsed);
  }

  @Test
  void aGenesisMutationRendersAndParsesBackToItself() {
    MutationHeaders genesis = MutationHeaders.genesis(ACTOR, KEY, STAMP);
    Map<String, String> map = genesis.toMap();

    assertEquals(JarvisHeaders.MUTATION, List.copyOf(map.keySet()));
    assertEquals("0", map.get(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION));
    assertEquals("hash:protocol-genesis", map.get(JarvisHeaders.PREVIOUS_EVENT_HASH));
    assertEquals("2026-06-12T18:00:00Z", map.get(JarvisHeaders.REQUEST_TIMESTAMP));
    assertEquals(
        Parsed.accepted(genesis),
        MutationHeaders.parse(
            OperationClass.WORKSESSION_GENESIS_MUTATION, HeaderLookup.of(map), CLOCK));
  }

  @Test
  void headerNamesAreLookedUpCaseInsensitively() {
    Map<String, String> lower = new LinkedHashMap<>();
    scopedHeaders().forEach((k, v) -> lower.put(k.toLowerCase(java.util.Locale.ROOT), v));
    assertTrue(
        MutationHeaders.parse(
                OperationClass.WORKSESSION_SCOPED_MUTATION, HeaderLookup.of(lower), CLOCK)
            .isAccepted());
  }

  @Test
  void everyViolationIsReportedNotOnlyTheFirst() {
    Map<String, String> headers = scopedHeaders();
    headers.put(JarvisHeaders.PROTOCOL_VERSION, "v0.2");
    headers.put(JarvisHeaders.REQUEST_TIMESTAMP, "2026-06-12T17:50:00Z");
    headers.put(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION, "-3");

    Parsed<MutationHeaders> parsed =
        MutationHeaders.parse(
            OperationClass.WORKSESSION_SCOPED_MUTATION, HeaderLookup.of(headers), CLOCK);

    assertEquals(
        List.of(
            ProtocolErrorId.UNSUPPORTED_PROTOCOL_VERSION,
            ProtocolErrorId.STALE_REQUEST_TIMESTAMP,
            ProtocolErrorId.MISSING_EXPECTED_WORK_SESSION_REVISION),
        ids(parsed));
    JarvisProtocolException e =
        assertThrows(JarvisProtocolException.class, () -> parsed.orElseThrow("trace:t"));
    assertEquals(ProtocolErrorId.UNSUPPORTED_PROTOCOL_VERSION, e.errorId());
    assertEquals(3, e.violations().size());
  }

  @Test
  void theToleranceCanBeChosen() {
    Map<String, String> headers = scopedHeaders();
    headers.put(JarvisHeaders.REQUEST_TIMESTAMP, "2026-06-12T18:01:00Z");
    Function<String, Optional<String>> lookup = HeaderLookup.of(headers);
    OperationClass scoped = OperationClass.WORKSESSION_SCOPED_MUTATION;

    assertTrue(MutationHeaders.parse(scoped, lookup, CLOCK).isAccepted());
    Parsed<MutationHeaders> strict =
        MutationHeaders.parse(scoped, lookup, CLOCK, Duration.ofSeconds(30));
    assertEquals(List.of(ProtocolErrorId.STALE_REQUEST_TIMESTAMP), ids(strict));
    assertTrue(strict.violation().orElseThrow().reason().contains("from the future"));
  }

  @Test
  void aGenesisMutationMustStartFromRevisionZeroAndTheGenesisHash() {
    Map<String, String> headers = scopedHeaders();
    Parsed<MutationHeaders> parsed =
        MutationHeaders.parse(
            OperationClass.WORKSESSION_GENESIS_MUTATION, HeaderLookup.of(headers), CLOCK);

    assertEquals(
        List.of(
            ProtocolErrorId.STALE_WORK_SESSION_REVISION,
            ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH),
        ids(parsed));
    assertEquals(
        List.of(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION, JarvisHeaders.PREVIOUS_EVENT_HASH),
        parsed.violations().stream().map(ProtocolViolation::field).toList());
  }

  @ParameterizedTest(name = "mutation headers are not parsed for a {0}")
  @EnumSource(
      value = OperationClass.class,
      names = {"WORKSESSION_SCOPED_READ", "EXPORT_READ"})
  void aReadClassIsNotAMutation(OperationClass read) {
    assertThrows(
        IllegalArgumentException.class, () -> MutationHeaders.parse(read, NO_HEADERS, CLOCK));
  }

  @Test
  void theCursorTravelsWhole() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new MutationHeaders(
                ProtocolVersion.V0_1,
                ACTOR,
                KEY,
                STAMP,
                Optional.of(ExpectedRevision.GENESIS),
                Optional.empty()));
  }

  @Test
  void aRetryKeepsEverythingButTheTimestamp() {
    MutationHeaders first = MutationHeaders.genesis(ACTOR, KEY, STAMP);
    RequestTimestamp later = new RequestTimestamp(NOW.plusSeconds(2));
    MutationHeaders retry = first.withRequestTimestamp(later);
    assertEquals(later, retry.requestTimestamp());
    assertEquals(first.idempotencyKey(), retry.idempotencyKey());
    assertEquals(first.expectedRevision(), retry.expectedRevision());
  }
}
