package dev.jarvis.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jarvis.host.RefusedCall;
import dev.jarvis.model.ProtocolErrorId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * Each Jarvis request is observed once, with what the servlet saw (method, path, status, time) and
 * what the host told (operation, outcome, error_id, trace_id), tagged with its route template.
 */
class JarvisRequestObserverTest {

  private final List<JarvisRequest> seen = new ArrayList<>();
  private final AtomicLong now = new AtomicLong();
  private final JarvisRequestObserver observer =
      new JarvisRequestObserver("/jarvis", true, List.of(seen::add), now::get);

  @Test
  void aRefusalIsObservedWithItsRouteActorErrorIdTraceIdAndTime() throws Exception {
    MockHttpServletRequest request =
        new MockHttpServletRequest("POST", "/jarvis/work-sessions/ws-1/events");
    request.addHeader("Jarvis-Actor-Id", "actor-agent-1");
    request.addHeader("Authorization", "Bearer secret-token");
    MockHttpServletResponse response = new MockHttpServletResponse();

    observer.doFilter(
        request,
        response,
        (req, res) -> {
          observer.refused(
              new RefusedCall(
                  Optional.of("appendJarvisEvent"),
                  403,
                  ProtocolErrorId.UNAUTHORIZED_ACTOR,
                  "4bf92f3577b34da6a3ce929d0e0e4736"));
          ((MockHttpServletResponse) res).setStatus(403);
          now.addAndGet(Duration.ofMillis(12).toNanos());
        });

    assertEquals(
        List.of(
            new JarvisRequest(
                "POST",
                "/jarvis/work-sessions/ws-1/events",
                "/jarvis/work-sessions/{work_session_id}/events",
                403,
                "actor-agent-1",
                "appendJarvisEvent",
                "refused",
                "unauthorized_actor",
                "4bf92f3577b34da6a3ce929d0e0e4736",
                Duration.ofMillis(12))),
        seen);
  }

  @Test
  void aRequestTheHostToldNothingOfTakesItsTraceIdFromTraceparentAndItsActorOnlyIfAnId()
      throws Exception {
    MockHttpServletRequest request = new MockHttpServletRequest("GET", "/jarvis/nowhere");
    request.addHeader("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    request.addHeader("Jarvis-Actor-Id", "actor\nforged log line");
    MockHttpServletResponse response = new MockHttpServletResponse();

    observer.doFilter(
        request, response, (req, res) -> ((MockHttpServletResponse) res).setStatus(404));

    JarvisRequest observed = seen.get(0);
    assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", observed.traceId());
    assertEquals("(not an id)", observed.actor());
    assertEquals("UNKNOWN", observed.route());
    assertEquals("unknown", observed.outcome());
  }
}
