package dev.jarvis.host.servlet;

import dev.jarvis.host.EventSink;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import java.io.IOException;

/**
 * A response in async mode written without blocking ({@link ServletOutputStream#setWriteListener}):
 * a write is made only when {@link ServletOutputStream#isReady()} says it can be, and one the
 * container cannot take at once completes in {@link #onWritePossible()}, on a container thread.
 * Nothing waits on a thread.
 */
final class AsyncSink implements EventSink, WriteListener {

  private final AsyncContext async;
  private final ServletOutputStream out;
  private byte[] pending;
  private boolean flushing;
  private Written outcome;
  private boolean over;

  /** Puts {@code async}'s response in non-blocking mode. */
  AsyncSink(AsyncContext async) throws IOException {
    this.async = async;
    this.out = async.getResponse().getOutputStream();
    out.setWriteListener(this);
  }

  @Override
  public void write(byte[] bytes, Written outcome) {
    synchronized (this) {
      this.pending = bytes;
      this.outcome = outcome;
    }
    push();
  }

  @Override
  public void onWritePossible() {
    push();
  }

  /** Writes, then flushes, what is pending as far as the container takes it now. */
  private void push() {
    Written done;
    synchronized (this) {
      if (over || outcome == null) {
        return;
      }
      try {
        if (pending != null) {
          if (!out.isReady()) {
            return;
          }
          out.write(pending);
          pending = null;
          flushing = true;
        }
        if (flushing) {
          if (!out.isReady()) {
            return;
          }
          out.flush();
          if (!out.isReady()) {
            return;
          }
          flushing = false;
        }
        done = outcome;
        outcome = null;
      } catch (IOException | RuntimeException gone) {
        onError(gone);
        return;
      }
    }
    done.written();
  }

  @Override
  public void onError(Throwable failure) {
    Written done;
    synchronized (this) {
      done = outcome;
      outcome = null;
      pending = null;
    }
    if (done != null) {
      done.failed();
    }
  }

  @Override
  public void end() {
    synchronized (this) {
      over = true;
    }
    async.complete();
  }

  /**
   * The servlet API cannot close a connection: the response is completed with what it holds, and
   * the container closes the connection when its own write timeout passes.
   */
  @Override
  public void abort() {
    end();
  }
}
