package dev.jarvis.langchain4j;

import java.util.Optional;

/**
 * The WorkSession a tool call is governed in, from the AI service's chat memory id (the
 * {@code @MemoryId} argument, or {@code "default"}). Empty: the call is refused, never run
 * ungoverned.
 */
@FunctionalInterface
public interface WorkSessionResolver {

  /** The WorkSession of the conversation {@code memoryId} (may be {@code null}). */
  Optional<String> workSessionId(Object memoryId);
}
