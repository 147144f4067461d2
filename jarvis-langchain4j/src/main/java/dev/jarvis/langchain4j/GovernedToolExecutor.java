package dev.jarvis.langchain4j;

import dev.jarvis.client.tools.GovernedTools;
import dev.jarvis.client.tools.ToolCall;
import dev.jarvis.client.tools.ToolResult;
import dev.jarvis.client.tools.ToolWork;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link ToolExecutor} that runs its delegate only as a governed action: the tool call is mapped
 * to an action, decided under the WorkSession's Policy, reviewed by a human where required (a
 * bounded wait), and recorded. Where the tool did not run the result text says so and why, and the
 * result is marked as an error, so the model can re-plan; it is never a silent success. Made by
 * {@link JarvisToolGovernance}.
 */
public final class GovernedToolExecutor implements ToolExecutor {

  private final ToolExecutor delegate;
  private final GovernedTools tools;
  private final WorkSessionResolver workSessions;

  GovernedToolExecutor(
      ToolExecutor delegate, GovernedTools tools, WorkSessionResolver workSessions) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.tools = tools;
    this.workSessions = workSessions;
  }

  /** The executor it governs. */
  public ToolExecutor delegate() {
    return delegate;
  }

  @Override
  public String execute(ToolExecutionRequest request, Object memoryId) {
    return govern(request, memoryId, () -> delegate.execute(request, memoryId)).text();
  }

  @Override
  public ToolExecutionResult executeWithContext(
      ToolExecutionRequest request, InvocationContext context) {
    Object memoryId = context == null ? null : context.chatMemoryId();
    ToolExecutionResult[] ran = new ToolExecutionResult[1];
    ToolResult result =
        govern(
            request,
            memoryId,
            () -> {
              ran[0] = delegate.executeWithContext(request, context);
              return ran[0].resultText();
            });
    if (result.isDone() && ran[0] != null) {
      return ran[0];
    }
    return ToolExecutionResult.builder().isError(true).resultText(result.text()).build();
  }

  private ToolResult govern(ToolExecutionRequest request, Object memoryId, ToolWork work) {
    ToolCall call =
        new ToolCall(
            Objects.requireNonNullElse(request.name(), ""),
            Objects.requireNonNullElse(request.arguments(), ""),
            Optional.ofNullable(request.id()));
    return tools.call(workSessions.workSessionId(memoryId), call, work);
  }

  @Override
  public String toString() {
    return "GovernedToolExecutor[" + delegate + "]";
  }
}
