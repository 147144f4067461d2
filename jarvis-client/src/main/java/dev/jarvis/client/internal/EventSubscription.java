package dev.jarvis.client.internal;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.AwaitPolicy;
import dev.jarvis.client.JarvisInvalidResponseException;
import dev.jarvis.client.RetryPolicy;
import dev.jarvis.client.Sleeper;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventPage;
import dev.jarvis.core.eventlog.EventStream;
import dev.jarvis.core.validation.PayloadValidator;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * One subscriber following one WorkSession's events as they are committed. It reads on a thread of
 * its own, blocking, so that the host's pace, the subscriber's demand and the connection are one
 * loop: an event is read only once the subscriber asked for it ({@link #request}), and a subscriber
 * that stops asking leaves the rest unread on the host (which cuts a connection it cannot write to;
 * the next one resumes).
 *
 * <p>Every event is verified against its predecessor's hash and must be the WorkSession's ({@link
 * VerifiedChain}) before it is delivered; a break ends the subscription with {@code
 * onError(JarvisInvalidResponseException)}. It follows the host's {@code event-stream} where it
 * answers one; after a dropped connection, a stream silent for longer than the read timeout or an
 * {@code : end} comment, it reconnects with {@code Last-Event-ID} of the last verified event, after
 * the retry policy's back-off, so nothing is lost or doubled. A host that answers the stream's
 * request with a JSON page instead is read by pages: long polls ({@code ?wait=}) when it declares
 * {@code event-stream}, plain page reads with the {@link AwaitPolicy}'s growing waits when not.
 *
 * <p>Cancelling stops the thread: it closes the connection and interrupts a read, a wait for demand
 * or a back-off in progress (never the subscriber's own {@code onNext}).
 */
public final class EventSubscription implements Flow.Subscription {

  /** Events asked for per page read. */
  static final int PAGE = 500;

  /**
   * How the subscription reaches the host: blocking calls through the client's pipeline (every link
   * a read goes through), made on the subscription's thread.
   */
  public interface Source {

    /**
     * Asks for a stream of the events after {@code after}; on a reconnection {@code lastEventId}
     * names the last one received.
     */
    Opened open(long after, Optional<Long> lastEventId);

    /**
     * A page of the events after {@code page.after()}: a long poll of {@code waitSeconds} if given.
     */
    EventPage page(EventLog.PageRequest page, OptionalInt waitSeconds);
  }

  /** What asking for a stream gave. */
  public sealed interface Opened {

    /** A stream: its body, open. */
    record Live(InputStream body) implements Opened {}

    /**
     * A JSON page instead: the host lacks {@code event-stream} ({@code hostStreams} false) or
     * something between it and the client does not pass a stream on.
     */
    record Page(EventPage page, boolean hostStreams) implements Opened {}
  }

  /**
   * The subscription's waits.
   *
   * @param retry the back-off before a reconnection
   * @param jitter the retry policy's jitter source
   * @param polls the waits between page reads of a host without {@code event-stream}
   * @param sleeper the client's sleeper, for every wait of the subscription's own
   * @param readTimeout how long an open stream may stay silent before it counts as lost
   * @param longPollSeconds the {@code wait} of a long poll
   */
  public record Timing(
      RetryPolicy retry,
      DoubleSupplier jitter,
      AwaitPolicy polls,
      Sleeper sleeper,
      Duration readTimeout,
      int longPollSeconds) {

    public Timing {
      Objects.requireNonNull(retry, "retry");
      Objects.requireNonNull(jitter, "jitter");
      Objects.requireNonNull(polls, "polls");
      Objects.requireNonNull(sleeper, "sleeper");
      Objects.requireNonNull(readTimeout, "readTimeout");
    }
  }

  private enum Mode {
    STREAM,
    LONG_POLL,
    POLL
  }

  private final String workSessionId;
  private final long after;
  private final Optional<ChainCursor> anchor;
  private final Source source;
  private final Timing timing;
  private final Supplier<PayloadValidator> validator;
  private final Flow.Subscriber<? super JsonNode> subscriber;
  private final Thread reader;

  private final Object lock = new Object();
  private long demand;
  private volatile boolean cancelled;
  private volatile boolean delivering;
  private Throwable refusedDemand;
  private InputStream body;
  private boolean reading;
  private long readStarted;
  private boolean watchdogArmed;
  private boolean timedOut;

  private EventSubscription(
      String workSessionId,
      long after,
      Optional<ChainCursor> anchor,
      Source source,
      Timing timing,
      Supplier<PayloadValidator> validator,
      Flow.Subscriber<? super JsonNode> subscriber) {
    this.workSessionId = workSessionId;
    this.after = after;
    this.anchor = anchor;
    this.source = source;
    this.timing = timing;
    this.validator = validator;
    this.subscriber = subscriber;
    this.reader = new Thread(this::run, "jarvis-events-" + workSessionId);
    reader.setDaemon(true);
  }

  /**
   * Subscribes {@code subscriber} to the events after {@code after}: {@code onSubscribe} is called
   * on this thread, the reading starts on the subscription's own.
   *
   * @param anchor the verified cursor at {@code after}, if known; otherwise, for {@code after > 0},
   *     event {@code after} is read first to learn its hash
   */
  public static EventSubscription start(
      String workSessionId,
      long after,
      Optional<ChainCursor> anchor,
      Source source,
      Timing timing,
      Supplier<PayloadValidator> validator,
      Flow.Subscriber<? super JsonNode> subscriber) {
    if (after < 0) {
      throw new IllegalArgumentException("afterSequence cannot be negative: " + after);
    }
    EventSubscription subscription =
        new EventSubscription(workSessionId, after, anchor, source, timing, validator, subscriber);
    subscriber.onSubscribe(subscription);
    subscription.reader.start();
    return subscription;
  }

  // ---- the subscriber's side ----

  @Override
  public void request(long n) {
    synchronized (lock) {
      if (cancelled) {
        return;
      }
      if (n <= 0) {
        // Reactive Streams §3.9: the subscription ends with an IllegalArgumentException.
        refusedDemand =
            new IllegalArgumentException("request(" + n + "): a subscriber asks for at least 1");
      } else {
        demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
        lock.notifyAll();
        return;
      }
    }
    stop();
  }

  @Override
  public void cancel() {
    stop();
  }

  /** Whether the reading thread has ended (for a test that checks nothing is left running). */
  public boolean isStopped() {
    return !reader.isAlive();
  }

  /** Waits up to {@code atMost} for the reading thread to end. */
  public boolean awaitStopped(Duration atMost) throws InterruptedException {
    reader.join(Math.max(1, atMost.toMillis()));
    return !reader.isAlive();
  }

  private void stop() {
    InputStream open;
    synchronized (lock) {
      if (cancelled) {
        return;
      }
      cancelled = true;
      lock.notifyAll();
      open = body;
    }
    // Never interrupt the subscriber's own onNext, nor a thread cancelling from inside it.
    if (Thread.currentThread() != reader && !delivering) {
      reader.interrupt();
    }
    close(open);
  }

  // ---- the reading thread ----

  private void run() {
    Throwable failure = null;
    try {
      follow(anchored());
    } catch (Throwable t) {
      failure = FailureCause.of(t);
    }
    Throwable refused;
    synchronized (lock) {
      refused = refusedDemand;
      if (refused == null && (cancelled || failure == null)) {
        return;
      }
      cancelled = true;
      close(body);
    }
    subscriber.onError(refused != null ? refused : failure);
  }

  /** The verified cursor the subscription starts from. */
  private VerifiedChain anchored() {
    if (after == 0) {
      return new VerifiedChain(workSessionId, ChainCursor.GENESIS);
    }
    if (anchor.isPresent()) {
      return new VerifiedChain(workSessionId, anchor.get());
    }
    EventPage page = source.page(new EventLog.PageRequest(after - 1, 1), OptionalInt.empty());
    if (page.events().isEmpty()) {
      throw new IllegalArgumentException(
          "WorkSession '" + workSessionId + "' has no event " + after + " to start after");
    }
    return VerifiedChain.startingAt(workSessionId, after, page.events().get(0));
  }

  private void follow(VerifiedChain chain) throws InterruptedException {
    Mode mode = Mode.STREAM;
    boolean reconnecting = false;
    int quietConnections = 0;
    int quietPolls = 0;
    while (!cancelled) {
      switch (mode) {
        case STREAM -> {
          EventSubscription.Opened opened =
              source.open(
                  chain.sequence(),
                  reconnecting ? Optional.of(chain.sequence()) : Optional.empty());
          if (opened instanceof Opened.Live live) {
            reconnecting = true;
            long before = chain.sequence();
            read(live.body(), chain);
            quietConnections = chain.sequence() > before ? 1 : quietConnections + 1;
            pause(timing.retry().backoff(quietConnections, timing.jitter().getAsDouble()));
          } else {
            Opened.Page page = (Opened.Page) opened;
            deliver(page.page(), chain);
            mode = page.hostStreams() ? Mode.LONG_POLL : Mode.POLL;
          }
        }
        case LONG_POLL -> {
          EventPage page =
              source.page(
                  new EventLog.PageRequest(chain.sequence(), PAGE),
                  OptionalInt.of(timing.longPollSeconds()));
          if (deliver(page, chain) == 0) {
            // The host waited already; this only keeps one that ignores wait from a busy loop.
            pause(timing.polls().firstPoll());
          }
        }
        case POLL -> {
          EventPage page =
              source.page(new EventLog.PageRequest(chain.sequence(), PAGE), OptionalInt.empty());
          if (deliver(page, chain) == 0) {
            pause(timing.polls().poll(++quietPolls));
          } else {
            quietPolls = 0;
          }
        }
      }
    }
  }

  private int deliver(EventPage page, VerifiedChain chain) throws InterruptedException {
    List<JsonNode> events = page.events();
    for (int i = 0; i < events.size(); i++) {
      chain.advance(events.get(i), "/events/" + i);
      emit(events.get(i));
    }
    return events.size();
  }

  /** Reads one connection's frames until it ends, is dropped or stays silent too long. */
  private void read(InputStream stream, VerifiedChain chain) throws InterruptedException {
    synchronized (lock) {
      if (cancelled) {
        close(stream);
        return;
      }
      body = stream;
    }
    EventStream.Reader frames = new EventStream.Reader();
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
      while (!cancelled) {
        Optional<String> line = line(lines);
        if (line.isEmpty()) {
          return;
        }
        Optional<EventStream.Reader.Item> item = frames.line(line.get());
        if (item.isEmpty()) {
          continue;
        }
        if (item.get() instanceof EventStream.Reader.Item.Comment comment) {
          if (comment.endReason().isPresent()) {
            return; // the host ended it (idle, expired, shutdown): resume after the back-off
          }
          continue;
        }
        JsonNode event = event((EventStream.Reader.Item.Frame) item.get());
        chain.advance(event, "/data");
        emit(event);
      }
    } catch (IOException closing) {
      // The connection is dropped either way.
    } finally {
      synchronized (lock) {
        body = null;
      }
    }
  }

  /**
   * The next line, or empty when the connection ended, failed, or stayed silent for the read
   * timeout. {@code HttpRequest.timeout} bounds only the wait for the response headers, never a
   * body read, so a watchdog closes a silent connection (and wakes the blocked read).
   */
  private Optional<String> line(BufferedReader lines) {
    synchronized (lock) {
      reading = true;
      timedOut = false;
      // The network's own time, as the watchdog's timer is: a silence is measured, not simulated.
      readStarted = System.nanoTime();
      if (!watchdogArmed) {
        watchdogArmed = true;
        arm(timing.readTimeout().toNanos());
      }
    }
    String line = null;
    try {
      line = lines.readLine();
    } catch (IOException dropped) {
      // Reconnect.
    }
    synchronized (lock) {
      reading = false;
      if (timedOut) {
        Thread.interrupted(); // the watchdog's interrupt was for this read only
        return Optional.empty();
      }
    }
    return Optional.ofNullable(line);
  }

  /**
   * The watchdog: one timer per subscription at a time (never one per line), on the JDK's shared
   * delay thread. When it fires during a read it either finds the read silent for the whole read
   * timeout, and drops the connection, or waits for the rest of the timeout of that read.
   */
  private void arm(long nanos) {
    CompletableFuture.runAsync(
        this::watch, CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS, Runnable::run));
  }

  private void watch() {
    InputStream silent;
    synchronized (lock) {
      if (cancelled || !reading) {
        watchdogArmed = false; // the next read arms it again
        return;
      }
      long left = timing.readTimeout().toNanos() - (System.nanoTime() - readStarted);
      if (left > 0) {
        arm(left);
        return;
      }
      watchdogArmed = false;
      timedOut = true;
      silent = body;
      reader.interrupt();
    }
    close(silent);
  }

  /** A frame's event: its data, one JSON event of the spec's schema, its id its sequence. */
  private JsonNode event(EventStream.Reader.Item.Frame frame) {
    JsonNode event;
    try {
      event = JarvisJson.mapper().readTree(frame.data());
    } catch (JacksonException e) {
      throw new JarvisInvalidResponseException(
          200, "/data", "a frame's data is not JSON: " + e.getOriginalMessage());
    }
    List<ProtocolViolation> violations = validator.get().validate("JarvisEvent", event);
    if (!violations.isEmpty()) {
      ProtocolViolation first = violations.get(0);
      throw new JarvisInvalidResponseException(200, "/data" + first.field(), first.reason());
    }
    String sequence = event.path("sequence").asText();
    if (frame.id().isPresent() && !frame.id().get().equals(sequence)) {
      throw new JarvisInvalidResponseException(
          200, "id", "a frame's id is " + frame.id().get() + ", its event's sequence " + sequence);
    }
    return event;
  }

  /** Hands one verified event to the subscriber once it has asked for it. */
  private void emit(JsonNode event) throws InterruptedException {
    synchronized (lock) {
      while (demand == 0 && !cancelled) {
        lock.wait();
      }
      if (cancelled) {
        throw new CancellationException("cancelled");
      }
      demand--;
    }
    delivering = true;
    try {
      subscriber.onNext(event);
    } finally {
      delivering = false;
    }
  }

  private void pause(Duration wait) throws InterruptedException {
    if (!cancelled && !wait.isZero()) {
      timing.sleeper().sleep(wait);
    }
  }

  private static void close(InputStream stream) {
    if (stream != null) {
      try {
        stream.close();
      } catch (IOException ignored) {
        // Closing is all that is asked.
      }
    }
  }
}
