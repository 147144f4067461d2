package dev.jarvis.client.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/**
 * What makes an {@code event-log} read a stream ({@code event-stream}): the exchange asks for
 * {@code text/event-stream}, names the last event received on a reconnection ({@code
 * Last-Event-ID}), and the transport leaves a {@code text/event-stream} body open here instead of
 * reading it to the end. Any other answer (a JSON page, a refusal) is read and checked as the page
 * read's always is, so a stream is opened through the very links every read goes through.
 */
public final class LiveRead {

  private final Optional<Long> lastEventId;
  private volatile InputStream body;

  /**
   * @param lastEventId the sequence of the last event received, on a reconnection
   */
  public LiveRead(Optional<Long> lastEventId) {
    this.lastEventId = lastEventId;
  }

  /** The {@code Last-Event-ID} to send, if any. */
  public Optional<Long> lastEventId() {
    return lastEventId;
  }

  /** The open stream's body, once the transport got one. */
  public Optional<InputStream> body() {
    return Optional.ofNullable(body);
  }

  void open(InputStream stream) {
    this.body = stream;
  }

  /** Closes the body, if one is open: a stream a link above refused must not stay connected. */
  public void close() {
    InputStream open = body;
    if (open != null) {
      try {
        open.close();
      } catch (IOException ignored) {
        // Closing is all that is asked; the connection is dropped either way.
      }
    }
  }
}
