package dev.jarvis.client;

import static com.github.tomakehurst.wiremock.client.WireMock.request;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.matching.RequestPatternBuilder.allRequests;
import static com.github.tomakehurst.wiremock.matching.RequestPatternBuilder.newRequestPattern;
import static dev.jarvis.client.ClientFixture.protocolResponse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.http.RequestMethod;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.jarvis.core.OperationClass;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.ProtocolOperations;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ProtocolHeadersTest {

  @RegisterExtension final ClientFixture host = new ClientFixture();

  @org.junit.jupiter.api.Test
  void aReadCanDeclareRequiredCapabilitiesAndExtensions() {
    JarvisResponse<?> response =
        host.client.execute(
            JarvisCall.getWorkSession(ClientFixture.SESSION)
                .requiring(List.of("cursor-headers", "audit-log"), List.of("com.example.audit")));

    assertEquals(200, response.status());
    LoggedRequest r = host.wireMock.findAll(allRequests()).get(0);
    assertEquals("cursor-headers, audit-log", r.getHeader("Jarvis-Required-Capabilities"));
    assertEquals("com.example.audit", r.getHeader("Jarvis-Extensions"));
  }

  @org.junit.jupiter.api.Test
  void aReadWithoutThemSendsNeither() {
    host.client.getWorkSession(ClientFixture.SESSION);

    LoggedRequest r = host.wireMock.findAll(allRequests()).get(0);
    assertFalse(r.containsHeader("Jarvis-Required-Capabilities"));
    assertFalse(r.containsHeader("Jarvis-Extensions"));
  }

  static Stream<Arguments> operationsInBothModes() {
    List<Arguments> out = new ArrayList<>();
    for (OperationCase op : OperationCase.all()) {
      for (Mode mode : Mode.values()) {
        out.add(Arguments.of(op, mode));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} ({1})")
  @MethodSource("operationsInBothModes")
  void everyOperationSendsExactlyTheHeadersItsClassRequires(OperationCase op, Mode mode) {
    ProtocolOperation spec = ProtocolOperations.byId(op.operationId());
    String body =
        spec.operationId().equals("appendJarvisEvent")
            ? "{{{request.body}}}"
            : Records.json(spec.responseSchema()).toString();
    host.wireMock.stubFor(
        request(op.method(), urlPathEqualTo(op.path()))
            .willReturn(
                protocolResponse(spec.successStatus(), body)
                    .withTransformers("response-template")));

    JarvisResponse<?> response = mode.run(host.client, op.call().get());

    assertEquals(spec.successStatus(), response.status());
    List<LoggedRequest> sent =
        host.wireMock.findAll(
            newRequestPattern(RequestMethod.fromString(op.method()), urlPathEqualTo(op.path())));
    assertEquals(1, sent.size(), "one request to " + op.path());
    LoggedRequest r = sent.get(0);
    OperationClass kind = spec.operationClass();
    assertEquals("v0.1", r.getHeader("Jarvis-Protocol-Version"));
    assertEquals("Bearer test-token", r.getHeader("Authorization"));
    assertTrue(r.getHeader("Jarvis-Actor-Id").startsWith("actor-"));
    assertEquals(kind.isMutation(), r.containsHeader("Jarvis-Idempotency-Key"), "idempotency key");
    assertEquals(kind.isMutation(), r.containsHeader("Jarvis-Request-Timestamp"), "timestamp");
    assertEquals(kind.needsCursor(), r.containsHeader("Jarvis-Expected-WorkSession-Revision"));
    assertEquals(kind.needsCursor(), r.containsHeader("Jarvis-Previous-Event-Hash"));
    if (kind.isMutation()) {
      assertEquals("2026-06-12T18:00:00Z", r.getHeader("Jarvis-Request-Timestamp"));
      assertFalse(r.getHeader("Jarvis-Idempotency-Key").isEmpty());
    }
    if (kind == OperationClass.WORKSESSION_GENESIS_MUTATION) {
      assertEquals("0", r.getHeader("Jarvis-Expected-WorkSession-Revision"));
      assertEquals("hash:protocol-genesis", r.getHeader("Jarvis-Previous-Event-Hash"));
    }
    if (kind == OperationClass.WORKSESSION_SCOPED_MUTATION) {
      // No cursor yet: the client read the WorkSession (revision 1) before mutating.
      assertEquals("1", r.getHeader("Jarvis-Expected-WorkSession-Revision"));
      assertEquals(
          Records.json("WorkSession").get("last_event_hash").asText(),
          r.getHeader("Jarvis-Previous-Event-Hash"));
    }
    int reads = kind == OperationClass.WORKSESSION_SCOPED_MUTATION ? 1 : 0;
    assertEquals(1 + reads, host.wireMock.findAll(allRequests()).size(), "requests in all");
  }
}
