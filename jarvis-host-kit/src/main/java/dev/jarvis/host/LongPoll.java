package dev.jarvis.host;

import dev.jarvis.host.internal.LiveEvents;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * One waiting long poll ({@code ?wait=S}: the event log's, the inbox's): no thread waits for it.
 * Woken by an append it may care about, it asks the store whether it is {@code ready} (an event
 * after its cursor; a Request after its inbox cursor) on the host's shared pool; when it is, at its
 * wait (the shared timer) or when the host closes, it gives its place back and answers the page as
 * the read answers it then.
 */
final class LongPoll {

  /** How a long poll watches the appends that may make it ready. */
  @FunctionalInterface
  interface Watching {
    LiveEvents.Watch watch(Runnable wake, Runnable cut);
  }

  private final LiveEvents live;
  private final Watching watching;
  private final BooleanSupplier ready;
  private final LiveEvents.Slot slot;
  private final Supplier<StoredResponse> page;
  private final CompletableFuture<StoredResponse> answer = new CompletableFuture<>();
  private final AtomicBoolean answered = new AtomicBoolean();
  private LiveEvents.Watch watch;
  private Optional<ScheduledFuture<?>> deadline = Optional.empty();

  LongPoll(
      LiveEvents live,
      Watching watching,
      BooleanSupplier ready,
      LiveEvents.Slot slot,
      Supplier<StoredResponse> page) {
    this.live = live;
    this.watching = watching;
    this.ready = ready;
    this.slot = slot;
    this.page = page;
  }

  /** Starts waiting up to {@code wait}; the answer completes once, never exceptionally. */
  CompletableFuture<StoredResponse> start(Duration wait) {
    synchronized (this) {
      watch = watching.watch(this::woken, () -> live.execute(this::answer));
      deadline = live.schedule(() -> live.execute(this::answer), wait.toNanos());
      if (answered.get()) {
        // Answered while the watch was being made (the host closing): leave it at once.
        watch.close();
      }
    }
    // An append between the first read and the watch is seen here.
    woken();
    return answer;
  }

  private void woken() {
    live.execute(
        () -> {
          if (answered.get()) {
            return;
          }
          boolean now;
          try {
            now = live.closed() || ready.getAsBoolean();
          } catch (RuntimeException storeFailure) {
            // The page read says what the store says (503 in bounded time).
            now = true;
          }
          if (now) {
            answer();
          }
        });
  }

  private void answer() {
    if (!answered.compareAndSet(false, true)) {
      return;
    }
    synchronized (this) {
      deadline.ifPresent(d -> d.cancel(false));
      if (watch != null) {
        watch.close();
      }
    }
    slot.close();
    // Read again, as the page read: what it answers is what the store holds now.
    answer.complete(page.get());
  }
}
