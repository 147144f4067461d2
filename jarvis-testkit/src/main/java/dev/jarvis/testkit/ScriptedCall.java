package dev.jarvis.testkit;

import dev.jarvis.core.ProtocolOperation;
import java.util.Objects;
import java.util.Optional;

/**
 * One scripted call: what to do instead of answering normally, and which coming call it applies to.
 *
 * @param action refuse, fault or delay
 * @param target the calls it may apply to; the first matching call takes it
 */
record ScriptedCall(NextCall action, CallTarget target) {

  ScriptedCall {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(target, "target");
  }

  /** Which calls a scripted action applies to. */
  record CallTarget(Optional<String> operationId, Optional<String> workSessionId) {

    static final CallTarget ANY = new CallTarget(Optional.empty(), Optional.empty());

    boolean matches(Optional<ProtocolOperation> op, StubRequest request) {
      if (operationId.isPresent()
          && !op.map(o -> o.operationId().equals(operationId.get())).orElse(false)) {
        return false;
      }
      return workSessionId.isEmpty()
          || request.path().startsWith("/work-sessions/" + workSessionId.get() + "/")
          || request.path().equals("/work-sessions/" + workSessionId.get());
    }
  }
}
