package dev.jarvis.langchain4j;

import dev.jarvis.client.tools.GovernedTools;
import dev.langchain4j.service.tool.AiServiceTool;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;
import java.util.Objects;

/**
 * A {@link ToolProvider} whose every tool runs governed: each executor its delegate provides is
 * wrapped in a {@link GovernedToolExecutor}, the tools' specifications and return behaviour kept.
 * Made by {@link JarvisToolGovernance}.
 */
public final class GovernedToolProvider implements ToolProvider {

  private final ToolProvider delegate;
  private final GovernedTools tools;
  private final WorkSessionResolver workSessions;

  GovernedToolProvider(ToolProvider delegate, GovernedTools tools, WorkSessionResolver ws) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.tools = tools;
    this.workSessions = ws;
  }

  @Override
  public ToolProviderResult provideTools(ToolProviderRequest request) {
    ToolProviderResult provided = delegate.provideTools(request);
    ToolProviderResult.Builder governed = ToolProviderResult.builder();
    if (provided == null) {
      return governed.build();
    }
    for (AiServiceTool tool : provided.aiServiceTools()) {
      governed.add(
          tool.toBuilder()
              .toolExecutor(new GovernedToolExecutor(tool.toolExecutor(), tools, workSessions))
              .build());
    }
    return governed.build();
  }

  @Override
  public boolean isDynamic() {
    return delegate.isDynamic();
  }
}
