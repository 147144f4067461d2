package dev.jarvis.client;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.client.audit.AuditCheck;
import dev.jarvis.client.audit.AuditReport;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventPage;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.JarvisEventPayload;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every shape of {@code event-log} page a host may answer, served by WireMock, read by each reader
 * of pages: the blocking stream ({@code client.events}), the blocking audit and the asynchronous
 * audit. They read the same events and end at the same place, and an off-spec page (an empty page
 * that says more follow) is the same {@link JarvisInvalidResponseException} at {@code /has_more}
 * from all three, at once, not a silent stop in one and an error in another.
 */
class EventPageShapesTest {

  @RegisterExtension final ClientFixture host = new ClientFixture();

  private static final String WS = ClientFixture.SESSION;
  private static final String EVENTS = "/work-sessions/" + WS + "/events";

  /** A valid chain of {@code n} events of the fixture's WorkSession. */
  static List<JsonNode> chain(int n) {
    AtomicInteger ids = new AtomicInteger();
    ProtocolRecords records =
        new ProtocolRecords(
            Clock.fixed(ClientFixture.START, ZoneOffset.UTC),
            () -> "id-" + ids.incrementAndGet(),
            ClientFixture.ACTOR);
    List<JsonNode> events = new ArrayList<>();
    ChainCursor cursor = ChainCursor.GENESIS;
    for (int i = 0; i < n; i++) {
      ObjectNode event =
          EventChain.next(
              cursor,
              JarvisJson.mapper()
                  .valueToTree(
                      records.addressedEvent(
                          WS,
                          "note.added",
                          JarvisEventPayload.ObjectTypeEnum.WORK_SESSION,
                          WS,
                          "noted")));
      events.add(event);
      cursor = cursor.advance(event.path("event_hash").asText());
    }
    return events;
  }

  /** A page the host answers to a request for the events after {@code after}. */
  record Served(long after, int from, int to, boolean hasMore) {}

  /** How a page shape ends for every reader. */
  record Shape(
      String name,
      int events,
      List<Served> pages,
      Optional<String> offSpecField,
      int eventsRead,
      boolean auditPasses) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Shape> shapes() {
    return Stream.of(
        new Shape(
            "one page holding every event, the last",
            5,
            List.of(new Served(0, 0, 5, false)),
            Optional.empty(),
            5,
            true),
        new Shape(
            "a full page that says more, then the last page",
            501,
            List.of(new Served(0, 0, 500, true), new Served(500, 500, 501, false)),
            Optional.empty(),
            501,
            true),
        new Shape(
            "a short page that says more, then the last page",
            5,
            List.of(new Served(0, 0, 2, true), new Served(2, 2, 5, false)),
            Optional.empty(),
            5,
            true),
        new Shape(
            "a page that says more, then an empty last page",
            5,
            List.of(new Served(0, 0, 5, true), new Served(5, 5, 5, false)),
            Optional.empty(),
            5,
            true),
        new Shape(
            "an empty last page where the WorkSession has events",
            5,
            List.of(new Served(0, 0, 0, false)),
            Optional.empty(),
            0,
            false),
        new Shape(
            "an empty page that says more",
            5,
            List.of(new Served(0, 0, 0, true)),
            Optional.of("/has_more"),
            0,
            false),
        new Shape(
            "a page that says more, then an empty page that says more",
            5,
            List.of(new Served(0, 0, 2, true), new Served(2, 2, 2, true)),
            Optional.of("/has_more"),
            0,
            false));
  }

  /** The WorkSession at the chain's end, and its pages as the shape has them. */
  private void serve(Shape shape) {
    List<JsonNode> chain = chain(shape.events());
    ObjectNode session = Records.json("WorkSession");
    session.put("revision", shape.events());
    session.put("last_event_hash", chain.get(chain.size() - 1).path("event_hash").asText());
    host.wireMock.stubFor(
        get(urlPathEqualTo("/work-sessions/" + WS))
            .willReturn(ClientFixture.protocolResponse(200, session.toString())));
    for (Served page : shape.pages()) {
      host.wireMock.stubFor(
          get(urlPathEqualTo(EVENTS))
              .withQueryParam("after", equalTo(Long.toString(page.after())))
              .willReturn(
                  ClientFixture.protocolResponse(
                      200,
                      new EventPage(WS, chain.subList(page.from(), page.to()), page.hasMore())
                          .toJson()
                          .toString())));
    }
  }

  /** The three readers of pages, each to what it ends with: an audit report, or the events. */
  enum Reader {
    STREAM(client -> client.events(WS).toList()),
    BLOCKING_AUDIT(client -> client.audit(WS)),
    ASYNC_AUDIT(
        client -> {
          try {
            return client.auditAsync(WS).join();
          } catch (CompletionException e) {
            throw (RuntimeException) JarvisFailure.of(e).orElseThrow();
          }
        });

    final Function<JarvisClient, Object> read;

    Reader(Function<JarvisClient, Object> read) {
      this.read = read;
    }
  }

  static Stream<Arguments> shapesByReader() {
    return shapes()
        .flatMap(shape -> Stream.of(Reader.values()).map(reader -> Arguments.of(shape, reader)));
  }

  @ParameterizedTest(name = "{0}, read by {1}")
  @MethodSource("shapesByReader")
  void everyReaderOfPagesEndsAPageShapeTheSameWay(Shape shape, Reader reader) {
    serve(shape);
    if (shape.offSpecField().isPresent()) {
      JarvisInvalidResponseException e =
          assertThrows(JarvisInvalidResponseException.class, () -> reader.read.apply(host.client));
      assertEquals(shape.offSpecField().get(), e.field(), e.getMessage());
      assertTrue(e.getMessage().contains("more events follow"), e.getMessage());
      // Refused at once: each page asked for once, none again.
      shape
          .pages()
          .forEach(
              page ->
                  host.wireMock.verify(
                      1,
                      getRequestedFor(urlPathEqualTo(EVENTS))
                          .withQueryParam("after", equalTo(Long.toString(page.after())))));
      return;
    }
    Object read = reader.read.apply(host.client);
    if (read instanceof AuditReport report) {
      assertEquals(shape.eventsRead(), report.eventCount(), report.toJson().toString());
      assertEquals(shape.auditPasses(), report.passed(), report.toJson().toString());
      assertEquals(
          shape.auditPasses() ? AuditReport.Verdict.PASSED : AuditReport.Verdict.FAILED,
          report.finding(AuditCheck.CHAIN).verdict());
    } else {
      assertEquals(shape.eventsRead(), ((List<?>) read).size());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shapes")
  void theBlockingAndTheAsynchronousAuditFindTheSameOnEveryShape(Shape shape) {
    serve(shape);
    Object blocking = outcome(() -> host.client.audit(WS));
    Object async = outcome(() -> host.client.auditAsync(WS).join());
    assertEquals(blocking, async);
  }

  /** The report, or the failure's kind and field, so that two outcomes compare. */
  private static Object outcome(java.util.function.Supplier<AuditReport> audit) {
    try {
      return audit.get();
    } catch (RuntimeException e) {
      JarvisFailure failure = JarvisFailure.of(e).orElseThrow(() -> e);
      return failure.kind()
          + " "
          + (failure instanceof JarvisInvalidResponseException off ? off.field() : "");
    }
  }

  @Test
  void aPageOfMoreEventsThanAskedForIsOffSpecAtEvents() {
    serve(
        new Shape(
            "five events to a request for two",
            5,
            List.of(new Served(0, 0, 5, false)),
            Optional.empty(),
            5,
            true));
    JarvisInvalidResponseException blocking =
        assertThrows(
            JarvisInvalidResponseException.class,
            () -> host.client.eventPage(WS, new EventLog.PageRequest(0, 2)));
    assertEquals("/events", blocking.field());
    CompletionException async =
        assertThrows(
            CompletionException.class,
            () -> host.client.eventPageAsync(WS, new EventLog.PageRequest(0, 2)).join());
    assertEquals(
        "/events",
        ((JarvisInvalidResponseException) JarvisFailure.of(async).orElseThrow()).field());
  }
}
