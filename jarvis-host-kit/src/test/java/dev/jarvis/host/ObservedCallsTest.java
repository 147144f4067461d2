package dev.jarvis.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.samples.SampleRecords;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a host team sees of each call: the listener hears of every accepted, replayed, refused and
 * failed call once, and the commit hook runs inside the unit of work of each accepted mutation and
 * never for a replay, so a side effect recorded there happens once per accepted call.
 */
class ObservedCallsTest {

  /** Everything the listener and the hook were told, in order. */
  static final class Observer implements ProtocolListener, CommitHook {
    final List<HandledCall> accepted = new CopyOnWriteArrayList<>();
    final List<HandledCall> replayed = new CopyOnWriteArrayList<>();
    final List<RefusedCall> refused = new CopyOnWriteArrayList<>();
    final List<FailedCall> failed = new CopyOnWriteArrayList<>();
    final List<AcceptedMutation> outbox = new CopyOnWriteArrayList<>();
    final List<HostWrittenEvent> hostOutbox = new CopyOnWriteArrayList<>();
    final List<HostWrittenEvent> hostWrote = new CopyOnWriteArrayList<>();
    volatile boolean hookFails;

    @Override
    public void accepted(HandledCall call) {
      accepted.add(call);
    }

    @Override
    public void replayed(HandledCall call) {
      replayed.add(call);
    }

    @Override
    public void refused(RefusedCall refusal) {
      refused.add(refusal);
    }

    @Override
    public void failed(FailedCall failure) {
      failed.add(failure);
    }

    @Override
    public void beforeCommit(AcceptedMutation mutation, UnitOfWork unit) throws IOException {
      if (hookFails) {
        throw new IOException("the outbox is unavailable");
      }
      outbox.add(mutation);
    }

    @Override
    public void beforeHostCommit(HostWrittenEvent written, UnitOfWork unit) throws IOException {
      if (hookFails) {
        throw new IOException("the outbox is unavailable");
      }
      hostOutbox.add(written);
    }

    @Override
    public void hostWrote(HostWrittenEvent written) {
      hostWrote.add(written);
    }

    void forget() {
      accepted.clear();
      replayed.clear();
      refused.clear();
      failed.clear();
      outbox.clear();
      hostOutbox.clear();
      hostWrote.clear();
    }
  }

  private final Observer observer = new Observer();
  private final KitHost kit =
      new KitHost(HostAuth.anyCaller(), "", b -> b.listener(observer).commitHook(observer));

  private KitHost withSession() {
    KitHost.ok(kit.createSession(KitHost.WS));
    observer.forget();
    return kit;
  }

  private Supplier<StoredResponse> appendOnce(String eventId) {
    ObjectNode draft =
        SampleRecords.eventDraft(eventId, KitHost.WS, KitHost.HUMAN, "note.recorded", kit.now());
    JsonNode event = EventChain.next(kit.cursor(KitHost.WS), draft);
    return kit.prepare(
        "appendJarvisEvent", Map.of("work_session_id", KitHost.WS), KitHost.HUMAN, event, "");
  }

  @Test
  void anAcceptedAppendIsReportedOnceWithTheEventItAppended() {
    withSession();
    StoredResponse answer = appendOnce("event-2").get();
    assertEquals(201, answer.status());
    assertEquals(1, observer.accepted.size());
    HandledCall call = observer.accepted.get(0);
    assertEquals(HandledCall.Outcome.ACCEPTED, call.outcome());
    assertEquals("event-2", call.appendedEvent().orElseThrow().path("id").asText());
    assertEquals(List.of(), observer.replayed);
  }

  @Test
  void aRetryOfAnAcceptedCallIsAReplayAndRunsTheCommitHookNoMoreThanOnce() {
    withSession();
    Supplier<StoredResponse> append = appendOnce("event-2");
    StoredResponse first = append.get();
    StoredResponse again = append.get();
    StoredResponse third = append.get();
    assertEquals(first, again);
    assertEquals(first, third);
    assertEquals(1, observer.accepted.size());
    assertEquals(2, observer.replayed.size());
    assertTrue(observer.replayed.stream().allMatch(HandledCall::replay));
    assertTrue(observer.replayed.stream().allMatch(c -> c.appendedEvent().isEmpty()));
    assertEquals(1, observer.outbox.size());
    assertEquals("event-2", observer.outbox.get(0).event().orElseThrow().path("id").asText());
  }

  @Test
  void theCommitHookSeesEveryAcceptedMutationWithItsEventAndRecords() {
    KitHost.ok(kit.createSession(KitHost.WS));
    // The registrations of the kit's Workers and Actors came first: no WorkSession, no event.
    assertTrue(
        observer.outbox.stream()
            .filter(m -> m.call().operationId().startsWith("register"))
            .allMatch(m -> m.event().isEmpty() && m.records().size() == 1));
    AcceptedMutation genesis = observer.outbox.get(observer.outbox.size() - 1);
    assertEquals("createWorkSession", genesis.call().operationId());
    // Compared as JSON: a store gives back a tree read from what it kept, whose numbers may be
    // nodes of another type (an IntNode for a LongNode) that JsonNode.equals tells apart.
    assertEquals(
        kit.host.config().stores().sessions().events(KitHost.WS).get(0).toString(),
        genesis.event().orElseThrow().toString());
  }

  @Test
  void aRefusalIsReportedWithItsErrorIdTraceIdActorAndRoute() throws IOException {
    withSession();
    Supplier<StoredResponse> stale = appendOnce("event-2");
    KitHost.ok(
        kit.append(
            KitHost.WS,
            KitHost.HUMAN,
            "event-other",
            "note.recorded",
            JarvisJson.mapper().createObjectNode()));
    observer.forget();
    StoredResponse answer = stale.get();
    assertEquals(400, answer.status());
    JsonNode error = JarvisJson.mapper().readTree(answer.body());
    RefusedCall refusal = observer.refused.get(0);
    assertEquals(1, observer.refused.size());
    assertEquals(Optional.of("appendJarvisEvent"), refusal.operationId());
    assertEquals(error.path("error_id").asText(), refusal.errorId().getValue());
    assertEquals(error.path("trace_id").asText(), refusal.traceId());
    assertTrue(refusal.actorId().isPresent());
    assertEquals(Optional.of("/work-sessions/{work_session_id}/events"), refusal.route());
    assertEquals(List.of(), observer.accepted);
    assertEquals(List.of(), observer.outbox);
  }

  @Test
  void aRefusalByTheGuardIsReportedWithTheOperationItNamed() {
    withSession();
    StoredResponse answer =
        kit.prepare(
                "appendJarvisEvent",
                Map.of("work_session_id", KitHost.WS),
                KitHost.HUMAN,
                JarvisJson.mapper().createObjectNode(),
                "")
            .get();
    assertEquals(400, answer.status());
    assertEquals(1, observer.refused.size());
    assertEquals(Optional.of("appendJarvisEvent"), observer.refused.get(0).operationId());
    assertEquals(Optional.empty(), observer.refused.get(0).actorId(), "not past the guard");
  }

  @Test
  void aFailingCommitHookWritesNothingAndIsAnsweredAsAHostFailure() throws IOException {
    withSession();
    ChainCursor before = kit.cursor(KitHost.WS);
    observer.hookFails = true;
    Supplier<StoredResponse> append = appendOnce("event-2");
    StoredResponse answer = append.get();
    assertEquals(500, answer.status());
    assertEquals(before, kit.cursor(KitHost.WS));
    assertEquals(1, observer.failed.size());
    assertEquals(
        JarvisJson.mapper().readTree(answer.body()).path("trace_id").asText(),
        observer.failed.get(0).traceId());
    assertEquals(List.of(), observer.accepted);

    // Nothing was kept for its key: the retry, once the outbox is back, is applied afresh.
    observer.hookFails = false;
    assertEquals(201, append.get().status());
    assertEquals(1, observer.accepted.size());
    assertEquals(1, observer.outbox.size());
  }

  @Test
  void aListenerThatThrowsDoesNotChangeTheAnswer() {
    KitHost throwing =
        new KitHost(
            HostAuth.anyCaller(),
            "",
            b ->
                b.listener(
                    new ProtocolListener() {
                      @Override
                      public void accepted(HandledCall call) {
                        throw new IllegalStateException("a broken metrics exporter");
                      }
                    }));
    assertEquals(201, throwing.createSession(KitHost.WS).status());
  }

  private StoredResponse read(String traceparent) {
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.put("Jarvis-Protocol-Version", "v0.1");
    headers.put("Jarvis-Actor-Id", KitHost.HUMAN);
    headers.put("traceparent", traceparent);
    var op = ProtocolOperations.byId("getWorkSession");
    try {
      return kit.host
          .handleCall(
              kit.host.check(
                  op,
                  name -> Optional.ofNullable(headers.get(name)),
                  Map.of("work_session_id", "ws-nowhere"),
                  "",
                  new byte[0]))
          .response();
    } catch (ProtocolRefusal refusal) {
      return kit.host.refusal(refusal);
    }
  }

  @Test
  void aRefusalCarriesTheTraceIdOfTheIncomingTraceparent() throws IOException {
    StoredResponse answer = read("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    assertEquals(400, answer.status());
    assertEquals(
        "4bf92f3577b34da6a3ce929d0e0e4736",
        JarvisJson.mapper().readTree(answer.body()).path("trace_id").asText());
  }

  @ParameterizedTest(name = "traceparent \"{0}\" is ignored")
  @ValueSource(
      strings = {
        "",
        "not-a-trace",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra"
      })
  void aMalformedTraceparentLeavesTheHostsOwnTraceId(String traceparent) throws IOException {
    StoredResponse answer = read(traceparent);
    assertEquals(400, answer.status());
    assertTrue(
        JarvisJson.mapper().readTree(answer.body()).path("trace_id").asText().startsWith("trace:"));
  }

  @Test
  void aRequestsExpiryWrittenByTheHostReachesTheCommitHookAndThenTheListener() {
    withSession();
    kit.pendingFetch(KitHost.WS, "pd-1", "req-1");
    observer.forget();
    kit.clock.advance(Duration.ofMinutes(30));

    KitHost.ok(kit.read("getWorkSession", KitHost.WS, KitHost.HUMAN));

    List<JsonNode> chain = kit.host.config().stores().sessions().events(KitHost.WS);
    JsonNode expiry = chain.get(chain.size() - 1);
    assertEquals("request.expired", expiry.path("type").asText());
    assertEquals(1, observer.hostOutbox.size());
    HostWrittenEvent written = observer.hostOutbox.get(0);
    assertEquals(KitHost.WS, written.workSessionId());
    assertEquals(expiry.toString(), written.event().toString());
    assertEquals("req-1", written.records().get(0).id());
    assertEquals("expired", written.records().get(0).body().path("status").asText());
    assertEquals(List.of(written), observer.hostWrote);
    // The read that found it due is reported as itself; the expiry is no call of its own.
    assertEquals(1, observer.accepted.size());
    assertEquals("getWorkSession", observer.accepted.get(0).call().operationId());
    assertEquals(List.of(), observer.outbox);
  }

  @Test
  void aFailingCommitHookLeavesADueExpiryUnwrittenUntilTheNextTouch() {
    withSession();
    kit.pendingFetch(KitHost.WS, "pd-1", "req-1");
    ChainCursor before = kit.cursor(KitHost.WS);
    kit.clock.advance(Duration.ofMinutes(30));
    observer.hookFails = true;

    assertEquals(500, kit.read("getWorkSession", KitHost.WS, KitHost.HUMAN).status());
    assertEquals(before, kit.cursor(KitHost.WS));
    assertEquals(List.of(), observer.hostWrote);

    observer.hookFails = false;
    KitHost.ok(kit.read("getWorkSession", KitHost.WS, KitHost.HUMAN));
    assertEquals(before.revision() + 1, kit.cursor(KitHost.WS).revision());
    assertEquals(1, observer.hostWrote.size());
  }
}
