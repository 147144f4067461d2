package dev.jarvis.host.reference;

import dev.jarvis.core.headers.JarvisHeaders;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One log line per request: method, path, status and acting Actor. It never logs headers other than
 * {@code Jarvis-Actor-Id}, so no credential reaches the log, and never bodies. The line is taken
 * here for both runtimes (a JAX-RS filter on Jersey, {@link #log} on Undertow) and written by one
 * writer thread: the profile in docs/benchmarks.md found the request threads spending 14 % of their
 * CPU formatting lines and most of their blocked time waiting for the console handler's lock. A
 * full queue makes the request wait (no line is ever dropped); lines keep their order. The writer
 * takes what is queued in batches and hands each line to the logger already formatted (no {@code
 * MessageFormat} pattern, no regular expression per field): the request thread only queues four
 * references.
 */
final class RequestLog implements ContainerResponseFilter {

  static final System.Logger LOG = System.getLogger("dev.jarvis.host.reference.requests");

  private record Line(String method, String path, int status, String actor) {}

  private static final int BATCH = 256;
  private static final int MAX_FIELD = 160;
  private static final BlockingQueue<Line> QUEUE = new ArrayBlockingQueue<>(16_384);
  private static final AtomicLong TAKEN = new AtomicLong();
  private static final Object WRITTEN_LOCK = new Object();
  private static long written;

  static {
    Thread writer = new Thread(RequestLog::write, "jarvis-request-log");
    writer.setDaemon(true);
    writer.start();
  }

  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    if (enabled()) {
      log(
          request.getMethod(),
          "/" + request.getUriInfo().getPath(),
          response.getStatus(),
          request.getHeaderString(JarvisHeaders.ACTOR_ID));
    }
  }

  /** Whether lines are written at all: checked before anything is gathered for one. */
  static boolean enabled() {
    return LOG.isLoggable(Level.INFO);
  }

  /** Takes the line of one request; {@code actor} is the header as sent, or null. */
  static void log(String method, String path, int status, String actor) {
    TAKEN.incrementAndGet();
    try {
      QUEUE.put(new Line(method, path, status, actor));
    } catch (InterruptedException e) {
      // Counted as written, so that no one waits for it.
      Thread.currentThread().interrupt();
      markWritten(1);
    }
  }

  /**
   * Waits until every line taken so far is written, for at most {@code limit}: before a host says
   * it stopped, and in tests that read the log.
   */
  static void awaitWritten(Duration limit) throws InterruptedException {
    long target = TAKEN.get();
    long deadline = System.nanoTime() + limit.toNanos();
    synchronized (WRITTEN_LOCK) {
      while (written < target) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return;
        }
        WRITTEN_LOCK.wait(Math.max(1, left / 1_000_000));
      }
    }
  }

  private static void write() {
    List<Line> batch = new ArrayList<>(BATCH);
    StringBuilder text = new StringBuilder(256);
    while (true) {
      try {
        batch.add(QUEUE.take());
      } catch (InterruptedException e) {
        return;
      }
      // What else is waiting goes in the same pass: one wake-up of the waiters per batch, not per
      // line.
      QUEUE.drainTo(batch, BATCH - 1);
      for (Line line : batch) {
        try {
          // Pre-formatted, without a MessageFormat pattern: the handler only adds its prefix.
          text.setLength(0);
          text.append(line.method()).append(' ');
          appendSanitized(text, line.path());
          text.append(' ').append(line.status()).append(" actor=");
          if (line.actor() == null) {
            text.append('-');
          } else {
            appendSanitized(text, line.actor());
          }
          LOG.log(Level.INFO, text.toString());
        } catch (RuntimeException e) {
          // A failing handler must not stop the log for the requests that follow.
        }
      }
      markWritten(batch.size());
      batch.clear();
    }
  }

  private static void markWritten(int lines) {
    synchronized (WRITTEN_LOCK) {
      written += lines;
      WRITTEN_LOCK.notifyAll();
    }
  }

  /**
   * Header text is client input: keep it to one short printable line (each character outside {@code
   * !}..{@code ~} becomes {@code ?}; past 160 characters, an ellipsis).
   */
  static void appendSanitized(StringBuilder out, String text) {
    int end = Math.min(text.length(), MAX_FIELD);
    for (int i = 0; i < end; i++) {
      char c = text.charAt(i);
      out.append(c >= 0x21 && c <= 0x7e ? c : '?');
    }
    if (text.length() > MAX_FIELD) {
      out.append('…');
    }
  }
}
