package dev.jarvis.client.internal;

import dev.jarvis.client.Sleeper;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;

/**
 * One logical call's way of running: blocking (every step on the caller's thread, every future
 * already complete) or asynchronous (I/O without a blocked thread, waits on a timer, every step on
 * the client's executor). It also holds what cancelling the call must stop: the attempt in flight
 * and the wait before the next one. One scope serves every exchange the call takes (a WorkSession
 * re-read and the call itself); each exchange has its own {@link CallExchange}.
 */
public abstract class CallScope {

  private final Sleeper sleeper;
  private final List<Future<?>> inFlight = new ArrayList<>();
  private boolean cancelled;

  private CallScope(Sleeper sleeper) {
    this.sleeper = sleeper;
  }

  /** A call that runs on the caller's thread. */
  public static CallScope blocking(Sleeper sleeper) {
    return new Blocking(sleeper);
  }

  /** A call that never blocks a thread and continues on {@code executor}. */
  public static CallScope async(Sleeper sleeper, Executor executor) {
    return new Async(sleeper, executor);
  }

  /** Sends one attempt's request. */
  abstract CompletableFuture<HttpResponse<byte[]>> send(HttpClient http, HttpRequest request);

  /**
   * Sends one attempt's request of a stream: the future completes once the response headers are in,
   * the body left to be read as it arrives. A stream is read on a thread of its own, so this blocks
   * in either kind of scope; an interrupt of that thread ends it as cancelled.
   */
  CompletableFuture<HttpResponse<InputStream>> sendStreaming(HttpClient http, HttpRequest request) {
    AbandonableBody body = new AbandonableBody();
    CompletableFuture<HttpResponse<InputStream>> answer = http.sendAsync(request, body);
    try {
      return CompletableFuture.completedFuture(answer.get());
    } catch (ExecutionException e) {
      return CompletableFuture.failedFuture(FailureCause.of(e));
    } catch (InterruptedException e) {
      // HttpClient.send would leave a stream whose headers arrive just now open and connected:
      // the exchange is cancelled, and a body that arrives all the same is closed at once.
      body.abandon();
      answer.cancel(true);
      Thread.currentThread().interrupt();
      return CompletableFuture.failedFuture(new CancellationException("interrupted"));
    }
  }

  /**
   * A stream's body handler that can be abandoned: once the caller gave up, a body the exchange
   * still delivers (whether or not cancelling the exchange reached it) is closed, never left open.
   */
  private static final class AbandonableBody implements HttpResponse.BodyHandler<InputStream> {
    private InputStream body;
    private boolean abandoned;

    @Override
    public HttpResponse.BodySubscriber<InputStream> apply(HttpResponse.ResponseInfo info) {
      HttpResponse.BodySubscriber<InputStream> subscriber =
          HttpResponse.BodySubscribers.ofInputStream();
      subscriber.getBody().thenAccept(this::opened);
      return subscriber;
    }

    private void opened(InputStream stream) {
      synchronized (this) {
        if (!abandoned) {
          body = stream;
          return;
        }
      }
      close(stream);
    }

    void abandon() {
      InputStream open;
      synchronized (this) {
        abandoned = true;
        open = body;
      }
      close(open);
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

  /** Completes after the wait before the next attempt. */
  abstract CompletableFuture<Void> delay(Duration wait);

  /**
   * Continues after {@code stage} (a credential fetched by the caller's code) in this scope's way:
   * a blocking call waits for it on the caller's thread; an asynchronous one takes its result over
   * to the client's executor, so nothing of the call runs on a thread the caller's code chose.
   */
  abstract <T> CompletableFuture<T> resume(CompletionStage<T> stage);

  /** Whether the caller cancelled the call. */
  public synchronized boolean isCancelled() {
    return cancelled;
  }

  /** Cancels the attempt in flight and the wait, and keeps any further attempt from starting. */
  public void cancel() {
    List<Future<?>> running;
    synchronized (this) {
      cancelled = true;
      running = List.copyOf(inFlight);
      inFlight.clear();
    }
    running.forEach(f -> f.cancel(true));
  }

  Sleeper sleeper() {
    return sleeper;
  }

  /** Registers work that {@link #cancel()} must stop; cancels it at once if already cancelled. */
  <F extends Future<?>> F track(F work) {
    boolean already;
    synchronized (this) {
      already = cancelled;
      if (!already) {
        inFlight.removeIf(Future::isDone);
        inFlight.add(work);
      }
    }
    if (already) {
      work.cancel(true);
    }
    return work;
  }

  private static final class Blocking extends CallScope {
    Blocking(Sleeper sleeper) {
      super(sleeper);
    }

    @Override
    CompletableFuture<HttpResponse<byte[]>> send(HttpClient http, HttpRequest request) {
      try {
        return CompletableFuture.completedFuture(
            http.send(request, HttpResponse.BodyHandlers.ofByteArray()));
      } catch (IOException e) {
        return CompletableFuture.failedFuture(e);
      } catch (InterruptedException e) {
        return interrupted();
      }
    }

    @Override
    CompletableFuture<Void> delay(Duration wait) {
      try {
        sleeper().sleep(wait);
        return CompletableFuture.completedFuture(null);
      } catch (InterruptedException e) {
        return interrupted();
      }
    }

    @Override
    <T> CompletableFuture<T> resume(CompletionStage<T> stage) {
      CompletableFuture<T> future = stage.toCompletableFuture();
      if (future.isDone() && !future.isCompletedExceptionally()) {
        return future; // a fixed credential: nothing to wait for, no stage to add
      }
      try {
        return CompletableFuture.completedFuture(future.get());
      } catch (ExecutionException e) {
        return CompletableFuture.failedFuture(FailureCause.of(e));
      } catch (InterruptedException e) {
        return interrupted();
      }
    }

    /** An interrupted blocking call ends as cancelled; the thread keeps its interrupt. */
    private static <T> CompletableFuture<T> interrupted() {
      Thread.currentThread().interrupt();
      return CompletableFuture.failedFuture(new CancellationException("interrupted"));
    }
  }

  private static final class Async extends CallScope {
    private final Executor executor;

    Async(Sleeper sleeper, Executor executor) {
      super(sleeper);
      this.executor = executor;
    }

    @Override
    CompletableFuture<HttpResponse<byte[]>> send(HttpClient http, HttpRequest request) {
      // The JDK completes sendAsync's future on the default CompletableFuture pool (the common
      // pool); take the answer over to the client's executor before any of our work runs.
      return track(http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()))
          .thenApplyAsync(response -> response, executor);
    }

    @Override
    CompletableFuture<Void> delay(Duration wait) {
      return track(sleeper().delay(wait, executor));
    }

    @Override
    <T> CompletableFuture<T> resume(CompletionStage<T> stage) {
      CompletableFuture<T> future = stage.toCompletableFuture();
      // Already there (a fixed token): carry on in this step, on this executor's thread.
      return future.isDone() ? future : future.thenApplyAsync(value -> value, executor);
    }
  }
}
