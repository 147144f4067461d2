package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jarvis.host.HostAuth;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.HostStores;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.undertow.ProtocolHandler.AnswerThread;
import org.junit.jupiter.api.Test;

/** Where the Undertow runtime answers: on the IO thread only for work that never waits. */
class AnswerThreadTest {

  @Test
  void theInMemoryStoreWithoutACommitHookIsAnsweredOnTheIoThread() {
    assertEquals(AnswerThread.IO, UndertowServer.answerThread(host(HostConfig.builder(auth()))));
  }

  @Test
  void aCommitHookSendsTheWorkToAWorker() {
    assertEquals(
        AnswerThread.WORKER,
        UndertowServer.answerThread(
            host(HostConfig.builder(auth()).commitHook((accepted, unit) -> {}))));
  }

  @Test
  void aStoreThatMayWaitSendsTheWorkToAWorker() {
    HostStores inner = HostStores.inMemory();
    HostStores wrapped =
        new HostStores() {
          @Override
          public dev.jarvis.host.WorkSessionStore sessions() {
            return inner.sessions();
          }

          @Override
          public dev.jarvis.host.RecordStore records() {
            return inner.records();
          }

          @Override
          public dev.jarvis.host.IdempotencyStore idempotency() {
            return inner.idempotency();
          }

          @Override
          public dev.jarvis.host.CommitResult commit(dev.jarvis.host.Mutation mutation) {
            return inner.commit(mutation);
          }
        };
    assertEquals(
        AnswerThread.WORKER,
        UndertowServer.answerThread(host(HostConfig.builder(auth()).stores(wrapped))));
  }

  private static HostAuth auth() {
    return HostAuth.bearer("answer-thread-token");
  }

  private static ProtocolHost host(HostConfig.Builder config) {
    return new ProtocolHost(config.build());
  }
}
