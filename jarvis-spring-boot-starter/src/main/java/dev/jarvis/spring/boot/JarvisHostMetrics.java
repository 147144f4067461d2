package dev.jarvis.spring.boot;

import dev.jarvis.host.FailedCall;
import dev.jarvis.host.HandledCall;
import dev.jarvis.host.ProtocolListener;
import dev.jarvis.host.RefusedCall;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Counts calls as {@code jarvis.host.calls}, tagged {@code outcome} (accepted, replayed, refused,
 * failed), {@code operation} and {@code error_id} ("none" where there is none), and times each
 * request to the Jarvis servlet as {@code jarvis.host.requests}, tagged the same and {@code uri}
 * (the operation's route template below the mount path, as {@code http.server.requests} tags a
 * controller's). The registry is looked up at the first call, so the meters land in whichever
 * registry the service ends up with.
 */
public final class JarvisHostMetrics implements ProtocolListener, JarvisRequest.Listener {

  /** The counter's name. */
  public static final String CALLS = "jarvis.host.calls";

  /** The timer's name. */
  public static final String REQUESTS = "jarvis.host.requests";

  private final ObjectProvider<MeterRegistry> registry;

  public JarvisHostMetrics(ObjectProvider<MeterRegistry> registry) {
    this.registry = registry;
  }

  private void count(String outcome, String operation, String errorId) {
    MeterRegistry meters = registry.getIfAvailable();
    if (meters != null) {
      meters
          .counter(CALLS, "outcome", outcome, "operation", operation, "error_id", errorId)
          .increment();
    }
  }

  @Override
  public void observed(JarvisRequest request) {
    MeterRegistry meters = registry.getIfAvailable();
    if (meters != null) {
      meters
          .timer(
              REQUESTS,
              "operation",
              request.operation(),
              "outcome",
              request.outcome(),
              "error_id",
              request.errorId(),
              "uri",
              request.route())
          .record(request.took());
    }
  }

  @Override
  public void accepted(HandledCall call) {
    count("accepted", call.call().operationId(), "none");
  }

  @Override
  public void replayed(HandledCall call) {
    count("replayed", call.call().operationId(), "none");
  }

  @Override
  public void refused(RefusedCall refusal) {
    count("refused", refusal.operationId().orElse("none"), refusal.errorId().getValue());
  }

  @Override
  public void failed(FailedCall failure) {
    count("failed", failure.operationId().orElse("none"), failure.errorId().getValue());
  }
}
