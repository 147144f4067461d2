package dev.jarvis.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.core.JarvisJson;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code watch}: follows a WorkSession live from the command line. Subscribes to its events through
 * {@link JarvisClient#subscribe(String, long)} (which verifies every event against its predecessor,
 * resumes after a drop with {@code Last-Event-ID}, and reads by long polls or pages where the host
 * does not stream) and prints each event as it arrives, as received, one compact JSON line, stdout
 * flushed after each.
 *
 * <p>It runs until stopped: SIGINT or SIGTERM (a shutdown hook cancels the subscription, flushes
 * stdout and ends the process with 0), {@code --count N} events printed, no event for {@code
 * --until-idle DURATION}, or stdout closed by its reader (as in {@code | head}). A broken chain or
 * a refusal ends it with one line on stderr, exit 1; a host without {@code event-log}, unreachable,
 * or a usage error, exit 2.
 */
@Command(
    name = "watch",
    mixinStandardHelpOptions = true,
    description = {
      "Follows a WorkSession live: prints its events after --after SEQUENCE (default 0, from"
          + " genesis) as they are committed, each verified against its predecessor's hash, one"
          + " compact JSON line per event, stdout flushed after each. A dropped connection is"
          + " resumed after the last printed event; a host without event-stream is read by long"
          + " polls or pages. The Actor must be a member of the WorkSession.",
      "Runs until Ctrl-C or SIGTERM (exit 0), --count N events, or --until-idle DURATION"
          + " without an event.",
      "Exit 0 stopped, 1 the host refused (its error_id and remediation on stderr) or the chain"
          + " broke, 2 usage error, host unreachable or without event-log."
    })
final class WatchCommand implements Callable<Integer> {

  /** How long a signal waits for the last line to be written before the process ends. */
  private static final Duration STOP_GRACE = Duration.ofSeconds(2);

  private final CliIo io;

  @Spec CommandSpec spec;

  @Mixin HostOptions host = new HostOptions();

  @Option(
      names = "--after",
      paramLabel = "SEQUENCE",
      defaultValue = "0",
      description = "print the events after this sequence (default: 0, from genesis)")
  long after;

  @Option(
      names = "--count",
      paramLabel = "N",
      description = "stop, exit 0, after printing N events")
  Optional<Long> count = Optional.empty();

  @Option(
      names = "--until-idle",
      paramLabel = "DURATION",
      converter = ReviewCommand.ExpiresIn.class,
      description =
          "stop, exit 0, when no event arrived for DURATION (90s, 20m, 2h or ISO-8601 such as"
              + " PT20M)")
  Optional<Duration> untilIdle = Optional.empty();

  @Parameters(index = "0", paramLabel = "WORK_SESSION_ID", description = "the WorkSession to watch")
  String workSessionId;

  WatchCommand(CliIo io) {
    this.io = io;
  }

  @Override
  public Integer call() throws CliException {
    checkUsage();
    Feed feed = new Feed();
    CountDownLatch finished = new CountDownLatch(1);
    Thread onSignal = new Thread(() -> stopOnSignal(feed, finished), "jarvis-watch-stop");
    Runtime.getRuntime().addShutdownHook(onSignal);
    try (JarvisClient client = JarvisClient.create(host.client("watch").build())) {
      client.subscribe(workSessionId, after).subscribe(feed);
      try {
        return follow(feed);
      } finally {
        feed.cancel();
      }
    } finally {
      io.out().flush();
      finished.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(onSignal);
      } catch (IllegalStateException shuttingDown) {
        // The hook is running: it ends the process with 0 now that the last line is out.
      }
    }
  }

  /** Prints what the subscription delivers until one of the ends. */
  private int follow(Feed feed) throws CliException {
    PrintStream out = io.out();
    long printed = 0;
    while (true) {
      Object next;
      try {
        next =
            untilIdle.isPresent()
                ? feed.signals.poll(untilIdle.get().toNanos(), TimeUnit.NANOSECONDS)
                : feed.signals.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return 0;
      }
      if (next == null || next == Feed.STOP || next == Feed.COMPLETE) {
        return 0; // idle for --until-idle, stopped by a signal, or (never) completed
      }
      if (next instanceof Failed failed) {
        return HostFailures.failed(spec, io, failed.failure(), "event-log");
      }
      out.println(line((JsonNode) next));
      out.flush();
      if (out.checkError()) {
        return 0; // stdout's reader is gone (| head): nothing more to print to
      }
      printed++;
      if (count.isPresent() && printed >= count.get()) {
        return 0;
      }
      feed.request();
    }
  }

  private static String line(JsonNode event) throws CliException {
    try {
      return JarvisJson.mapper().writeValueAsString(event);
    } catch (JsonProcessingException e) {
      throw new CliException("cannot write an event: " + e.getOriginalMessage());
    }
  }

  /** SIGINT, SIGTERM: stop following, let the last line out, end the process with 0. */
  private void stopOnSignal(Feed feed, CountDownLatch finished) {
    feed.signals.add(Feed.STOP);
    try {
      finished.await(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    io.out().flush();
    Runtime.getRuntime().halt(0);
  }

  /** What picocli cannot say about the options: usage errors, exit 2. */
  private void checkUsage() {
    if (after < 0) {
      throw usage("--after must be 0 or more, got " + after);
    }
    if (count.isPresent() && count.get() < 1) {
      throw usage("--count must be at least 1, got " + count.get());
    }
    if (untilIdle.isPresent() && (untilIdle.get().isNegative() || untilIdle.get().isZero())) {
      throw usage("--until-idle must be a positive duration, got " + untilIdle.get());
    }
  }

  private CommandLine.ParameterException usage(String message) {
    return new CommandLine.ParameterException(spec.commandLine(), message);
  }

  /** The subscription ended with {@code failure}. */
  private record Failed(Throwable failure) {}

  /**
   * The subscriber: hands every signal to the command's thread through a queue, one event asked for
   * at a time (the next once the last is printed).
   */
  private static final class Feed implements Flow.Subscriber<JsonNode> {
    static final Object STOP = new Object();
    static final Object COMPLETE = new Object();

    final BlockingQueue<Object> signals = new LinkedBlockingQueue<>();
    private Flow.Subscription subscription;
    private boolean cancelled;

    @Override
    public void onSubscribe(Flow.Subscription s) {
      boolean cancelNow;
      synchronized (this) {
        subscription = s;
        cancelNow = cancelled;
      }
      if (cancelNow) {
        s.cancel();
      } else {
        s.request(1);
      }
    }

    @Override
    public void onNext(JsonNode event) {
      signals.add(event);
    }

    @Override
    public void onError(Throwable failure) {
      signals.add(new Failed(failure));
    }

    @Override
    public void onComplete() {
      signals.add(COMPLETE);
    }

    void request() {
      Flow.Subscription s;
      synchronized (this) {
        s = subscription;
      }
      if (s != null) {
        s.request(1);
      }
    }

    void cancel() {
      Flow.Subscription s;
      synchronized (this) {
        cancelled = true;
        s = subscription;
      }
      if (s != null) {
        s.cancel();
      }
    }
  }
}
