package dev.jarvis.host.undertow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.xnio.XnioIoThread;

/**
 * An answer worked out on a worker is sent, and its exchange ended, on the connection's IO thread.
 * Ended on the worker, Undertow re-arms the connection's reads from there while its IO thread spins
 * on the exchange's state; with a keep-alive client whose next request is already waiting, that IO
 * thread burns the rest of its time slice on a core it shares with the worker (p99 of the pinned
 * PostgreSQL run halved when this moved, docs/benchmarks.md).
 */
class WorkerAnswersLeaveFromTheIoThreadTest {

  @Test
  void everyAnswerOfAWorkerIsSentFromAnIoThread() throws IOException {
    List<String> senders = new CopyOnWriteArrayList<>();
    try (UndertowTestHost host =
            new UndertowTestHost(
                HttpLimits.defaults(),
                ProtocolHandler.AnswerThread.WORKER,
                (exchange, status) ->
                    senders.add(Thread.currentThread() instanceof XnioIoThread ? "io" : "worker"));
        RawConnection c = host.connect()) {
      for (int i = 0; i < 5; i++) {
        RawConnection.Reply reply =
            c.send(UndertowTestHost.readHead("/nothing-here-" + i) + "\r\n").read();
        assertEquals(404, reply.status(), reply.body());
      }
      byte[] worker = UndertowTestHost.worker("human-io");
      assertEquals(200, c.send(host.registerWorker("human-io", worker)).read().status());
    }
    assertEquals(List.of("io", "io", "io", "io", "io", "io"), senders);
  }
}
