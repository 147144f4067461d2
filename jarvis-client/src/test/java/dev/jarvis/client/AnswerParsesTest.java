package dev.jarvis.client;

import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.jarvis.client.ClientFixture.protocolResponse;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import dev.jarvis.client.pipeline.AnswerParses;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineResponse;
import dev.jarvis.model.JarvisEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each answer's body is parsed once, however many checks read it: the nesting limit, the answer
 * against the spec, the event chain, the stale-timestamp and stale-session checks, the {@code
 * error_id} and {@code trace_id} of a refusal, and the typed record all share one tree. Counted on
 * every answer the transport returns, the WorkSession re-read's included.
 */
class AnswerParsesTest {

  private static final String EVENTS = "/work-sessions/" + ClientFixture.SESSION + "/events";

  static Stream<Arguments> calls() {
    return Stream.of(
        Arguments.of(
            "a record, after the WorkSession re-read",
            stub(ClientFixture.DECISIONS, protocolResponse(201, decision())),
            (Consumer<JarvisClient>) c -> c.execute(ClientFixture.recordDecision()),
            2),
        Arguments.of(
            "an appended event, checked as the next link of the chain",
            stub(
                EVENTS,
                protocolResponse(201, "{{{request.body}}}").withTransformers("response-template")),
            (Consumer<JarvisClient>)
                c -> c.appendJarvisEvent(ClientFixture.SESSION, Records.of(JarvisEvent.class)),
            2),
        Arguments.of(
            "a refusal",
            stub(
                ClientFixture.DECISIONS,
                protocolResponse(409, ProtocolErrorsTest.errorBody("invalid_transition"))),
            refused(),
            2),
        Arguments.of(
            "a stale refusal, followed by the re-read",
            stub(
                ClientFixture.DECISIONS,
                protocolResponse(409, ProtocolErrorsTest.errorBody("stale_work_session_revision"))),
            refused(),
            3),
        Arguments.of(
            "a stale request timestamp, then the record",
            null,
            (Consumer<JarvisClient>) c -> c.execute(ClientFixture.recordDecision()),
            3));
  }

  @ParameterizedTest(name = "{0}: each answer parsed once")
  @MethodSource("calls")
  void eachAnswerIsParsedOnce(String what, Stub stub, Consumer<JarvisClient> call, int answers) {
    List<PipelineResponse> raw = Collections.synchronizedList(new ArrayList<>());
    JarvisPolicy capture =
        JarvisPolicy.named(
            "capture", (request, next) -> next.send(request).thenApply(a -> keep(raw, a)));
    try (ClientFixture host = new ClientFixture(b -> b.addPerAttemptPolicy(capture))) {
      host.stubWorkSessionRead();
      if (stub == null) {
        host.firstAnswerThenDecision(
            ClientFixture.DECISIONS,
            protocolResponse(400, ProtocolErrorsTest.errorBody("stale_request_timestamp")));
      } else {
        host.wireMock.stubFor(post(urlPathEqualTo(stub.path())).willReturn(stub.answer()));
      }

      call.accept(host.client);

      assertEquals(answers, raw.size());
      for (PipelineResponse answer : raw) {
        assertEquals(1, AnswerParses.of(answer), answer.toString());
      }
    }
  }

  /** A POST stub: where, and what it answers. */
  record Stub(String path, ResponseDefinitionBuilder answer) {}

  private static Stub stub(String path, ResponseDefinitionBuilder answer) {
    return new Stub(path, answer);
  }

  private static Consumer<JarvisClient> refused() {
    return c -> {
      try {
        c.execute(ClientFixture.recordDecision());
      } catch (JarvisRefusalException expected) {
        // the point: how often its body was parsed
      }
    };
  }

  private static PipelineResponse keep(List<PipelineResponse> raw, PipelineResponse answer) {
    raw.add(answer);
    return answer;
  }

  private static String decision() {
    return Records.json("PolicyDecision").toString();
  }
}
