package dev.jarvis.host;

/**
 * The answer to a request that may hold its thread ({@link ProtocolHost#answerHeld}): an answer to
 * send as every other, an event stream to run, or (from {@link ProtocolHost#checkHeld}) a checked
 * call still to answer.
 */
public sealed interface HeldAnswer {

  /** An answer to send as it is: a page (a long poll that waited or did not), or a refusal. */
  record Answered(StoredResponse response) implements HeldAnswer {}

  /**
   * An accepted event stream: send status 200 with its {@link LiveStream#headers()}, then {@link
   * LiveStream#run} it on a thread that may block until it ends.
   */
  record Streaming(LiveStream stream) implements HeldAnswer {}

  /**
   * A request {@link ProtocolHost#checkHeld checked} and not yet answered: answer it with {@link
   * ProtocolHost#answerHeld(ProtocolCall, java.util.function.Function)} on a thread that may block.
   */
  record Checked(ProtocolCall call) implements HeldAnswer {}
}
