package dev.jarvis.testkit;

import dev.jarvis.model.ProtocolErrorId;
import java.time.Duration;
import java.util.Objects;

/**
 * The next call of one operation in one WorkSession, to script: see {@link JarvisHostStub#onNext}.
 */
public final class NextCallTarget {

  private final JarvisHostStub stub;
  private final ScriptedCall.CallTarget target;

  NextCallTarget(JarvisHostStub stub, ScriptedCall.CallTarget target) {
    this.stub = stub;
    this.target = target;
  }

  /** Refuses it with HTTP 400 and a ProtocolError of this {@code error_id}, changing nothing. */
  public JarvisHostStub refuse(ProtocolErrorId errorId) {
    return stub.script(new NextCall.Refuse(Objects.requireNonNull(errorId, "errorId")), target);
  }

  /** Answers it with a transport fault (or a 503), changing nothing. */
  public JarvisHostStub fault(Fault fault) {
    return stub.script(new NextCall.Inject(Objects.requireNonNull(fault, "fault")), target);
  }

  /** Answers it normally, but only after {@code delay}. */
  public JarvisHostStub delay(Duration delay) {
    return stub.script(JarvisHostStub.delay(delay), target);
  }
}
