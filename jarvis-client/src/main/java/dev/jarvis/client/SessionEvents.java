package dev.jarvis.client;

import dev.jarvis.client.internal.CallScope;
import dev.jarvis.client.internal.EventSubscription;
import dev.jarvis.client.internal.FailureCause;
import dev.jarvis.client.internal.HostCapabilities;
import dev.jarvis.client.internal.LiveRead;
import dev.jarvis.client.internal.Pipeline;
import dev.jarvis.client.pipeline.PipelineResponse;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventPage;
import dev.jarvis.core.eventlog.EventStream;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * A WorkSession's {@code event-log} read as a subscription makes it ({@link EventSubscription}):
 * blocking, on the subscription's thread, through the client's pipeline as the subscribing Actor,
 * so that a stream is asked for with the read headers, HostAuth and retries every read has.
 */
final class SessionEvents implements EventSubscription.Source {

  /** Events asked for in a page the host answers instead of a stream. */
  private static final int PAGE = 500;

  private final String workSessionId;
  private final String actorId;
  private final Pipeline pipeline;
  private final Sleeper sleeper;
  private final Runnable ensureOpen;
  private final Function<JarvisCall<EventPage>, EventPage> execute;

  SessionEvents(
      String workSessionId,
      String actorId,
      Pipeline pipeline,
      Sleeper sleeper,
      Runnable ensureOpen,
      Function<JarvisCall<EventPage>, EventPage> execute) {
    this.workSessionId = workSessionId;
    this.actorId = actorId;
    this.pipeline = pipeline;
    this.sleeper = sleeper;
    this.ensureOpen = ensureOpen;
    this.execute = execute;
  }

  /**
   * The longest long poll an attempt's timeout leaves room for: the host answers after {@code
   * wait}, so a poll as long as the attempt timeout would time out on an idle WorkSession.
   */
  static int longPollSeconds(Duration attemptTimeout) {
    long seconds = attemptTimeout.minusSeconds(5).getSeconds();
    return (int) Math.max(0, Math.min(EventLog.MAX_WAIT_SECONDS, seconds));
  }

  @Override
  public EventSubscription.Opened open(long after, Optional<Long> lastEventId) {
    ensureOpen.run();
    LiveRead live = new LiveRead(lastEventId);
    PipelineResponse answer;
    try {
      answer =
          pipeline
              .sendLive(
                  JarvisCall.listJarvisEvents(workSessionId, new EventLog.PageRequest(after, PAGE)),
                  actorId,
                  CallScope.blocking(sleeper),
                  live)
              .join();
    } catch (CompletionException | CancellationException e) {
      live.close();
      throw FailureCause.rethrowable(e);
    }
    if (live.body().isPresent()) {
      return new EventSubscription.Opened.Live(live.body().get());
    }
    EventPage page =
        (EventPage)
            answer
                .record()
                .orElseThrow(() -> new IllegalStateException("a page read answered no page"));
    return new EventSubscription.Opened.Page(
        page, HostCapabilities.declares(answer.headers(), EventStream.CAPABILITY));
  }

  @Override
  public EventPage page(EventLog.PageRequest page, OptionalInt waitSeconds) {
    ensureOpen.run();
    return execute.apply(
        waitSeconds.isPresent()
            ? JarvisCall.listJarvisEvents(workSessionId, page, waitSeconds.getAsInt())
            : JarvisCall.listJarvisEvents(workSessionId, page));
  }
}
