package dev.jarvis.core.headers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.model.ProtocolErrorId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ResponseHeadersTest {

  @Test
  void aResponseRendersVersionThenCapabilitiesAndParsesBack() {
    ResponseHeaders headers =
        ResponseHeaders.of(Optional.of(HostCapabilities.of("evidence.export")));
    assertEquals(JarvisHeaders.RESPONSE, List.copyOf(headers.toMap().keySet()));
    assertEquals(Parsed.accepted(headers), ResponseHeaders.parse(HeaderLookup.of(headers.toMap())));
    assertEquals(Set.of("evidence.export"), headers.declaredCapabilities());
  }

  @Test
  void aResponseWithoutCapabilitiesDeclaresNone() {
    ResponseHeaders headers =
        ResponseHeaders.parse(HeaderLookup.of(Map.of("jarvis-protocol-version", "v0.1")))
            .orElseThrow("trace:t");
    assertEquals(Set.of(), headers.declaredCapabilities());
    assertEquals(Map.of(JarvisHeaders.PROTOCOL_VERSION, "v0.1"), headers.toMap());
  }

  @Test
  void aResponseMustSayItsProtocolVersion() {
    assertEquals(
        List.of(ProtocolErrorId.MISSING_PROTOCOL_VERSION),
        ResponseHeaders.parse(name -> Optional.empty()).violations().stream()
            .map(ProtocolViolation::errorId)
            .toList());
    assertEquals(
        List.of(ProtocolErrorId.UNSUPPORTED_PROTOCOL_VERSION),
        ResponseHeaders.parse(HeaderLookup.of(Map.of(JarvisHeaders.PROTOCOL_VERSION, "v1")))
            .violations()
            .stream()
            .map(ProtocolViolation::errorId)
            .toList());
  }
}
