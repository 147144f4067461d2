package dev.jarvis.host.undertow;

import org.junit.jupiter.api.BeforeAll;

/**
 * Every case of {@link ProtocolHandlerTest} again with the host kit's work on the IO thread that
 * read the request ({@link ProtocolHandler.AnswerThread#IO}), as the reference host runs it on the
 * in-memory store: the same answers, bodies read in full, requests on one connection in order.
 */
class ProtocolHandlerOnTheIoThreadTest extends ProtocolHandlerTest {

  // Shadows the superclass's start, so that JUnit runs this one only.
  @BeforeAll
  static void start() {
    host = new UndertowTestHost(HttpLimits.defaults(), ProtocolHandler.AnswerThread.IO);
  }
}
