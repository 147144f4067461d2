package dev.jarvis.host;

import java.util.concurrent.CompletionStage;

/**
 * The answer to a request that may wait ({@link ProtocolHost#answerHeld}): an answer to send as
 * every other, an event stream to start, or a long poll whose answer comes later. None holds a
 * thread while it waits.
 */
public sealed interface HeldAnswer {

  /** An answer to send as it is: a page (a long poll with nothing to wait for), or a refusal. */
  record Answered(StoredResponse response) implements HeldAnswer {}

  /**
   * An accepted event stream: send status 200 with its {@link LiveStream#headers()}, then {@link
   * LiveStream#start start} it on the response's non-blocking sink (or {@link LiveStream#run run}
   * it where the runtime only blocks).
   */
  record Streaming(LiveStream stream) implements HeldAnswer {}

  /**
   * A long poll that waits for an event after its cursor: {@code answer} completes, on a thread of
   * the host's shared pool, with the page to send (at the first event, at its {@code wait}, or when
   * the host closes); it never completes exceptionally.
   */
  record Polling(CompletionStage<StoredResponse> answer) implements HeldAnswer {}
}
