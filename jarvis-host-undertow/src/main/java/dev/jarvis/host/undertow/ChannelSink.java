package dev.jarvis.host.undertow;

import dev.jarvis.host.EventSink;
import io.undertow.server.HttpServerExchange;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.xnio.IoUtils;
import org.xnio.channels.StreamSinkChannel;

/**
 * An event stream's response on Undertow's non-blocking response channel: each write is made and
 * flushed on the connection's IO thread, and one the socket cannot take at once waits for the
 * channel to be writable (a write listener), never on a thread.
 */
final class ChannelSink implements EventSink {

  private final HttpServerExchange exchange;
  // Touched only on the IO thread.
  private StreamSinkChannel channel;
  private ByteBuffer pending;
  private Written outcome;

  ChannelSink(HttpServerExchange exchange) {
    this.exchange = exchange;
  }

  @Override
  public void write(byte[] bytes, Written outcome) {
    exchange
        .getIoThread()
        .execute(
            () -> {
              this.pending = ByteBuffer.wrap(bytes);
              this.outcome = outcome;
              push();
            });
  }

  /** Writes and flushes what is pending, or waits for the channel to be writable. */
  private void push() {
    if (pending == null) {
      if (channel != null) {
        channel.suspendWrites();
      }
      return;
    }
    try {
      if (channel == null) {
        channel = exchange.getResponseChannel();
      }
      while (pending.hasRemaining()) {
        if (channel.write(pending) == 0) {
          whenWritable();
          return;
        }
      }
      if (!channel.flush()) {
        whenWritable();
        return;
      }
      channel.suspendWrites();
      settle().written();
    } catch (IOException | RuntimeException gone) {
      settle().failed();
    }
  }

  private void whenWritable() {
    channel.getWriteSetter().set(c -> push());
    channel.resumeWrites();
  }

  private Written settle() {
    Written done = outcome;
    pending = null;
    outcome = null;
    return done;
  }

  @Override
  public void end() {
    exchange.getIoThread().execute(exchange::endExchange);
  }

  @Override
  public void abort() {
    IoUtils.safeClose(exchange.getConnection());
  }
}
