package dev.jarvis.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventLogQueryException;
import dev.jarvis.core.exchange.ProtocolExchange;
import dev.jarvis.core.headers.ActorId;
import dev.jarvis.core.requestinbox.RequestInbox;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The query string is a typed part of the call, parsed once, and never a path parameter. */
class ReadQueryTest {

  @Test
  void the_event_log_read_takes_its_page_and_wait_from_the_query() {
    ReadQuery query = ReadQuery.parse(EventLog.OPERATION, "after=3&limit=7&wait=5", true);

    assertEquals(new EventLog.PageRequest(3, 7), query.eventPage());
    assertEquals(Duration.ofSeconds(5), query.eventWait());
    assertEquals("after=3&limit=7&wait=5", query.raw());
  }

  @Test
  void a_host_without_the_live_read_ignores_wait_even_out_of_range() {
    ReadQuery query = ReadQuery.parse(EventLog.OPERATION, "wait=999", false);

    assertEquals(Duration.ZERO, query.eventWait());
  }

  @Test
  void a_parameter_named_twice_is_refused() {
    assertThrows(
        EventLogQueryException.class,
        () -> ReadQuery.parse(EventLog.OPERATION, "after=1&after=2", true));
  }

  @Test
  void the_inbox_read_takes_its_statuses_from_the_query() {
    ReadQuery query = ReadQuery.parse(RequestInbox.OPERATION, "status=expired&limit=2", false);

    assertEquals(Set.of("expired"), query.inbox().statuses());
    assertEquals(2, query.inbox().limit());
  }

  @Test
  void a_spec_operation_reads_no_query() {
    assertSame(
        ReadQuery.none(),
        ReadQuery.parse(ProtocolOperations.byId("getWorkSession"), "after=x&after=y", true));
  }

  @Test
  void a_call_built_without_options_has_no_query_no_trace_and_no_actor_record() {
    ProtocolCall call =
        ProtocolCall.builder(
                ProtocolExchange.read(
                    EventLog.OPERATION, new ActorId("actor-1"), Map.of("work_session_id", "ws-1")))
            .build();

    assertSame(ReadQuery.none(), call.query());
    assertEquals(new EventLog.PageRequest(0, EventLog.DEFAULT_LIMIT), call.eventPage());
    assertEquals(Optional.empty(), call.traceId());
    assertEquals(Optional.empty(), call.actorRecord());
    assertEquals(Map.of("work_session_id", "ws-1"), call.pathParameters());
  }

  @Test
  void a_call_carries_its_query_beside_its_path_parameters() {
    ReadQuery query = ReadQuery.parse(EventLog.OPERATION, "after=2", false);
    ProtocolCall call =
        ProtocolCall.builder(
                ProtocolExchange.read(
                    EventLog.OPERATION, new ActorId("actor-1"), Map.of("work_session_id", "ws-1")))
            .query(query)
            .build();
    ProtocolCall traced = call.tracedAs(Optional.of("4bf92f3577b34da6a3ce929d0e0e4736"));

    assertEquals(2, traced.eventPage().after());
    assertTrue(traced.pathParameters().keySet().stream().noneMatch("?"::equals));
    assertEquals(call.exchange(), traced.exchange());
  }
}
