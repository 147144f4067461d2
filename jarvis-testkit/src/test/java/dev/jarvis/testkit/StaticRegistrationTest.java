package dev.jarvis.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.chain.ChainCursor;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.extension.RegisterExtension;

class StaticRegistrationTest {

  @RegisterExtension static final JarvisHostStub HOST = StubWorld.stub();

  private static int port = -1;

  @RepeatedTest(3)
  void aStaticStubRunsOnceForTheClassAndForgetsStateBetweenTests() {
    if (port == -1) {
      port = HOST.port();
    }
    assertEquals(port, HOST.port());
    assertTrue(HOST.workSession(StubWorld.SESSION).isEmpty());
    ChainCursor cursor =
        StubWorld.sessionAtRevisionOne(new StubCalls(HOST.baseUrl(), StubWorld.CLOCK));
    assertEquals(1, cursor.revision());
  }
}
