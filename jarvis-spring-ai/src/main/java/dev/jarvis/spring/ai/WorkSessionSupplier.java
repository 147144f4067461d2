package dev.jarvis.spring.ai;

import java.util.Optional;

/**
 * The WorkSession a tool call is governed in when the call's {@code ToolContext} names none ({@link
 * JarvisToolContext#WORK_SESSION_ID}). Empty: the call is refused, never run ungoverned. A bean of
 * this type replaces the one made from {@code jarvis.agent.governance.work-session-id}.
 */
@FunctionalInterface
public interface WorkSessionSupplier {

  /** The WorkSession of the current conversation, if any. */
  Optional<String> workSessionId();
}
