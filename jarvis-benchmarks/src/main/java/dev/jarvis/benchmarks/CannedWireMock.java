package dev.jarvis.benchmarks;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.put;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.samples.SampleRecords;
import java.util.concurrent.CountDownLatch;

/**
 * WireMock standalone answering what {@code jarvis-cli load} sends with canned, spec-valid answers
 * and the protocol headers, no request journal: the yardstick of {@code host-load.sh}. Every append
 * gets the same 201 event, so {@code load} reports that the host stored another event than the one
 * sent (expected: nothing is stored); the throughput and latency are what it is for.
 *
 * <p>{@code java -cp jarvis-benchmarks.jar dev.jarvis.benchmarks.CannedWireMock PORT}; prints
 * {@code listening on URI}, runs until killed.
 */
public final class CannedWireMock {

  private CannedWireMock() {}

  public static void main(String[] args) throws InterruptedException {
    WireMockServer server = start(args.length > 0 ? Integer.parseInt(args[0]) : 0);
    System.out.println("listening on http://127.0.0.1:" + server.port() + "/");
    System.out.flush();
    Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "wiremock-stop"));
    new CountDownLatch(1).await();
  }

  /** The canned WireMock, started on {@code port} (0: a free one); the caller stops it. */
  static WireMockServer start(int port) {
    String now = "2026-06-12T18:00:00Z";
    JsonNode event =
        EventChain.next(
            ChainCursor.GENESIS,
            SampleRecords.eventDraft("evt-canned", "ws-canned", "actor-canned", "note.added", now));
    ChainCursor after = ChainCursor.GENESIS.advance(event.path("event_hash").asText());
    JsonNode session =
        SampleRecords.workSession("ws-canned", "actor-canned", "worker-h", "worker-a", now);
    WireMockServer server =
        new WireMockServer(
            options()
                .bindAddress("127.0.0.1")
                .port(port)
                .disableRequestJournal()
                .containerThreads(64));
    server.start();
    server.stubFor(
        put(urlPathMatching("/workers/[^/]+"))
            .willReturn(json(200, SampleRecords.worker("worker-canned", "human"))));
    server.stubFor(
        put(urlPathMatching("/actors/[^/]+"))
            .willReturn(
                json(200, SampleRecords.actor("actor-canned", "worker-canned", "human", now))));
    server.stubFor(
        post(urlPathEqualTo("/work-sessions")).willReturn(cursor(json(201, session), after)));
    server.stubFor(
        post(urlPathMatching("/work-sessions/[^/]+/events"))
            .willReturn(cursor(json(201, event), after)));
    server.stubFor(get(urlPathMatching("/work-sessions/[^/]+")).willReturn(json(200, session)));
    return server;
  }

  private static ResponseDefinitionBuilder json(int status, JsonNode body) {
    return aResponse()
        .withStatus(status)
        .withHeader("Content-Type", "application/json")
        .withHeader("Jarvis-Protocol-Version", "v0.1")
        .withHeader("Jarvis-Host-Capabilities", "cursor-headers")
        .withBody(body.toString());
  }

  private static ResponseDefinitionBuilder cursor(
      ResponseDefinitionBuilder answer, ChainCursor cursor) {
    return answer
        .withHeader("Jarvis-WorkSession-Revision", Long.toString(cursor.revision()))
        .withHeader("Jarvis-Last-Event-Hash", cursor.lastEventHash());
  }
}
