package dev.jarvis.spring.ai;

import dev.jarvis.client.tools.GovernedTools;
import dev.jarvis.client.tools.ToolCall;
import dev.jarvis.client.tools.ToolResult;
import java.util.Objects;
import java.util.Optional;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.metadata.ToolMetadata;

/**
 * A {@link ToolCallback} that calls its delegate only as a governed action: the call is mapped to
 * an action, decided under the WorkSession's Policy, reviewed by a human where required (a bounded
 * wait), and recorded. Where the tool did not run the answer says so and why, so the model can
 * re-plan; it is never a silent success. The definition and metadata are the delegate's. Made by
 * {@link JarvisToolGovernance}.
 *
 * <p>The WorkSession is the tool context's {@link JarvisToolContext#WORK_SESSION_ID} where the
 * application set it, else the {@link WorkSessionSupplier}'s. Spring AI hands a callback no
 * tool-call id, so each call is a fresh action key (a re-run after a crash is a new action).
 */
public final class GovernedToolCallback implements ToolCallback {

  private final ToolCallback delegate;
  private final GovernedTools tools;
  private final WorkSessionSupplier workSessions;

  GovernedToolCallback(ToolCallback delegate, GovernedTools tools, WorkSessionSupplier ws) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.tools = tools;
    this.workSessions = ws;
  }

  /** The callback it governs. */
  public ToolCallback delegate() {
    return delegate;
  }

  @Override
  public ToolDefinition getToolDefinition() {
    return delegate.getToolDefinition();
  }

  @Override
  public ToolMetadata getToolMetadata() {
    return delegate.getToolMetadata();
  }

  @Override
  public String call(String toolInput) {
    return call(toolInput, null);
  }

  @Override
  public String call(String toolInput, ToolContext toolContext) {
    ToolCall call =
        ToolCall.of(delegate.getToolDefinition().name(), Objects.requireNonNullElse(toolInput, ""));
    ToolResult result =
        tools.call(
            workSession(toolContext),
            call,
            () ->
                toolContext == null
                    ? delegate.call(toolInput)
                    : delegate.call(toolInput, toolContext));
    return result.text();
  }

  private Optional<String> workSession(ToolContext toolContext) {
    if (toolContext != null
        && toolContext.getContext() != null
        && toolContext.getContext().get(JarvisToolContext.WORK_SESSION_ID) instanceof String id
        && !id.isBlank()) {
      return Optional.of(id);
    }
    return workSessions.workSessionId();
  }

  @Override
  public String toString() {
    return "GovernedToolCallback[" + delegate.getToolDefinition().name() + "]";
  }
}
