package dev.jarvis.client;

import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.request;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.matching.RequestPatternBuilder.newRequestPattern;
import static dev.jarvis.client.ClientFixture.protocolResponse;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.tomakehurst.wiremock.http.RequestMethod;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.jarvis.client.generated.api.AttributionApi;
import dev.jarvis.client.generated.api.ControlPlaneApi;
import dev.jarvis.client.generated.api.EvidenceApi;
import dev.jarvis.client.generated.api.FeedbackApi;
import dev.jarvis.client.generated.api.LearningApi;
import dev.jarvis.client.generated.api.WorkSessionsApi;
import dev.jarvis.client.generated.api.WorkersApi;
import dev.jarvis.client.generated.invoker.ApiClient;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.headers.JarvisHeaders;
import java.lang.reflect.Method;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The client's links build requests from the spec's operation table rather than through the
 * generated API (docs/client.md says why); the generated API stays the reference for the wire
 * shape. For each operation, the generated method is called with the headers and body the client
 * sent, and must send the same method, path, protocol headers and body.
 */
class GeneratedApiAgreementTest {

  private static final List<Class<?>> APIS =
      List.of(
          WorkersApi.class,
          WorkSessionsApi.class,
          ControlPlaneApi.class,
          AttributionApi.class,
          LearningApi.class,
          EvidenceApi.class,
          FeedbackApi.class);
  private static final List<String> COMPARED =
      Stream.concat(
              Stream.of("Content-Type", "Accept"),
              Stream.concat(JarvisHeaders.MUTATION.stream(), JarvisHeaders.READ.stream()))
          .distinct()
          .toList();

  @RegisterExtension final ClientFixture host = new ClientFixture();

  static List<OperationCase> operations() {
    return OperationCase.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("operations")
  void theClientSendsWhatTheGeneratedApiSends(OperationCase op) throws Exception {
    ProtocolOperation spec = ProtocolOperations.byId(op.operationId());
    host.wireMock.stubFor(
        request(op.method(), anyUrl())
            .atPriority(10)
            .willReturn(protocolResponse(spec.successStatus(), "{}")));
    JarvisCall<?> call = op.call().get();
    if (!spec.operationClass().isMutation()) {
      call = call.requiring(List.of("cursor-headers"), List.of("com.example.audit"));
    }
    try {
      host.client.execute(call);
    } catch (JarvisInvalidResponseException expected) {
      // The canned "{}" answer is off-spec; only what was sent matters here.
    }
    LoggedRequest sent = lastTo(op);
    int before = to(op).size();

    invokeGenerated(spec, op, sent);
    assertEquals(before + 1, to(op).size(), "the generated API sent its request");
    LoggedRequest generated = lastTo(op);

    assertEquals(sent.getMethod(), generated.getMethod());
    assertEquals(sent.getUrl(), generated.getUrl());
    for (String header : COMPARED) {
      assertEquals(sent.getHeader(header), generated.getHeader(header), header);
    }
    if (spec.requestSchema().isPresent()) {
      assertEquals(
          JarvisJson.mapper().readTree(sent.getBody()),
          JarvisJson.mapper().readTree(generated.getBody()));
    }
  }

  private List<LoggedRequest> to(OperationCase op) {
    return host.wireMock.findAll(
        newRequestPattern(RequestMethod.fromString(op.method()), urlPathEqualTo(op.path())));
  }

  private LoggedRequest lastTo(OperationCase op) {
    List<LoggedRequest> requests = to(op);
    return requests.get(requests.size() - 1);
  }

  /** Calls {@code <operationId>WithHttpInfo}: path parameter, headers in spec order, body. */
  private void invokeGenerated(ProtocolOperation spec, OperationCase op, LoggedRequest sent)
      throws Exception {
    ApiClient generated =
        new ApiClient(
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1),
            JarvisJson.mapper(),
            host.wireMock.baseUrl());
    for (Class<?> type : APIS) {
      for (Method method : type.getMethods()) {
        Class<?>[] parameters = method.getParameterTypes();
        boolean withoutExtraHeaders =
            parameters.length == 0 || parameters[parameters.length - 1] != Map.class;
        if (method.getName().equals(spec.operationId() + "WithHttpInfo") && withoutExtraHeaders) {
          Object api = type.getConstructor(ApiClient.class).newInstance(generated);
          try {
            method.invoke(api, arguments(spec, op, sent, parameters));
          } catch (java.lang.reflect.InvocationTargetException offSpecAnswer) {
            // The canned answer does not bind; the request has been sent.
          }
          return;
        }
      }
    }
    throw new AssertionError("no generated method for " + spec.operationId());
  }

  private static Object[] arguments(
      ProtocolOperation spec, OperationCase op, LoggedRequest sent, Class<?>[] parameters)
      throws Exception {
    List<Object> args = new ArrayList<>();
    if (spec.path().contains("{")) {
      args.add(op.call().get().pathParameter().orElseThrow());
    }
    List<String> headers = new ArrayList<>(JarvisHeaders.required(spec.operationClass()));
    headers.addAll(JarvisHeaders.optional(spec.operationClass()));
    for (String header : headers) {
      String value = sent.containsHeader(header) ? sent.getHeader(header) : null;
      args.add(
          header.equals(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION)
              ? Long.valueOf(value)
              : value);
    }
    if (spec.requestSchema().isPresent()) {
      args.add(JarvisJson.mapper().readValue(sent.getBody(), parameters[args.size()]));
    }
    return args.toArray();
  }
}
