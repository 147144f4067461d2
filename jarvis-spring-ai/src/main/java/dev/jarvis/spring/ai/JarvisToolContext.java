package dev.jarvis.spring.ai;

import java.util.Map;

/**
 * The {@code ToolContext} entries governed tools read. The application sets them, never the model:
 * {@code chatClient.prompt(...).toolContext(JarvisToolContext.workSession(ws))}.
 */
public final class JarvisToolContext {

  /** The WorkSession id the conversation's tool calls are governed in (a {@code String}). */
  public static final String WORK_SESSION_ID = "jarvis.work_session_id";

  private JarvisToolContext() {}

  /** A tool context naming WorkSession {@code workSessionId}. */
  public static Map<String, Object> workSession(String workSessionId) {
    return Map.of(WORK_SESSION_ID, workSessionId);
  }
}
