package dev.jarvis.langchain4j;

import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.governed.GovernedOptions;
import dev.jarvis.client.tools.GovernedTools;
import dev.jarvis.client.tools.ToolActionMapping;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import dev.langchain4j.service.tool.DefaultToolExecutor;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderResult;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Governs a LangChain4j agent's tools: one wrapper, and every tool execution is a Jarvis governed
 * action (decided under the WorkSession's Policy, reviewed by a human where required within a
 * bounded wait, run only within the approval, recorded).
 *
 * <pre>{@code
 * JarvisToolGovernance governance =
 *     JarvisToolGovernance.builder(client)
 *         .workSession(workSessionId)
 *         .mapping(ToolActionTable.builder()
 *             .tool("summarize", RiskClass.LOW)
 *             .tool(ToolRule.of("fetch_external_source", RiskClass.MEDIUM).targetFrom("url", "source:"))
 *             .build())
 *         .options(GovernedOptions.builder().reviewWait(Duration.ofMinutes(10)).build())
 *         .build();
 * Assistant assistant =
 *     AiServices.builder(Assistant.class)
 *         .chatModel(model)
 *         .toolProvider(governance.tools(new ResearchTools()))
 *         .build();
 * }</pre>
 *
 * <p>A tool call the mapping does not map never runs; a denied, unapproved or timed-out one never
 * runs either, and its result text (marked as an error) tells the model why. Immutable and
 * thread-safe.
 */
public final class JarvisToolGovernance {

  private final GovernedTools tools;
  private final WorkSessionResolver workSessions;

  private JarvisToolGovernance(GovernedTools tools, WorkSessionResolver workSessions) {
    this.tools = tools;
    this.workSessions = workSessions;
  }

  /** A builder for tools run by {@code client}, as its acting Actor (the agent). */
  public static Builder builder(JarvisClient client) {
    return new Builder(client);
  }

  /** The governed-tools runner underneath (mapping and options). */
  public GovernedTools governedTools() {
    return tools;
  }

  /**
   * A {@link ToolProvider} of the {@code @Tool} methods of {@code toolObjects}, each governed: give
   * it to {@code AiServices.builder(...).toolProvider(...)}.
   */
  public ToolProvider tools(Object... toolObjects) {
    ToolProviderResult.Builder result = ToolProviderResult.builder();
    for (Object toolObject : toolObjects) {
      Objects.requireNonNull(toolObject, "toolObject");
      for (Method method : toolObject.getClass().getDeclaredMethods()) {
        Tool annotation = method.getAnnotation(Tool.class);
        if (annotation == null) {
          continue;
        }
        ToolSpecification specification = ToolSpecifications.toolSpecificationFrom(method);
        // The tool's exception reaches the governed run, so it is recorded as a failure event
        // and told to the model as a failure, not returned as if it were the tool's result.
        ToolExecutor executor =
            DefaultToolExecutor.builder()
                .object(toolObject)
                .originalMethod(method)
                .methodToInvoke(method)
                .propagateToolExecutionExceptions(true)
                .build();
        result.add(specification, govern(executor), annotation.returnBehavior());
      }
    }
    ToolProviderResult provided = result.build();
    return request -> provided;
  }

  /** {@code provider} with every tool it provides governed. */
  public ToolProvider govern(ToolProvider provider) {
    return new GovernedToolProvider(provider, tools, workSessions);
  }

  /**
   * {@code tools} with every executor governed: give it to {@code
   * AiServices.builder(...).tools(Map)}.
   */
  public Map<ToolSpecification, ToolExecutor> govern(Map<ToolSpecification, ToolExecutor> tools) {
    Map<ToolSpecification, ToolExecutor> governed = new LinkedHashMap<>();
    tools.forEach((specification, executor) -> governed.put(specification, govern(executor)));
    return governed;
  }

  /** {@code executor}, governed. */
  public GovernedToolExecutor govern(ToolExecutor executor) {
    if (executor instanceof GovernedToolExecutor already) {
      return already;
    }
    return new GovernedToolExecutor(executor, tools, workSessions);
  }

  /** Builds a {@link JarvisToolGovernance}: a WorkSession source and a mapping are required. */
  public static final class Builder {

    private final GovernedTools.Builder tools;
    private WorkSessionResolver workSessions;

    private Builder(JarvisClient client) {
      this.tools = GovernedTools.builder(client);
    }

    /** Every tool call is governed in {@code workSessionId}. */
    public Builder workSession(String workSessionId) {
      Optional<String> id = Optional.of(Objects.requireNonNull(workSessionId, "workSessionId"));
      this.workSessions = memoryId -> id;
      return this;
    }

    /** Each conversation's calls are governed in the WorkSession {@code resolver} names. */
    public Builder workSessions(WorkSessionResolver resolver) {
      this.workSessions = Objects.requireNonNull(resolver, "resolver");
      return this;
    }

    /** Which action each tool call is (for example a {@code ToolActionTable}). Required. */
    public Builder mapping(ToolActionMapping mapping) {
      tools.mapping(mapping);
      return this;
    }

    /**
     * How each action runs: the Policy where the agent knows it, and the bound on the wait for a
     * human ({@link GovernedOptions.Builder#reviewWait}, default 30 minutes).
     */
    public Builder options(GovernedOptions options) {
      tools.options(options);
      return this;
    }

    /**
     * Whether the model's tool-call id is the action key (default yes); see {@link GovernedTools}.
     */
    public Builder keyFromCallId(boolean keyFromCallId) {
      tools.keyFromCallId(keyFromCallId);
      return this;
    }

    public JarvisToolGovernance build() {
      if (workSessions == null) {
        throw new IllegalStateException("a WorkSession (or a WorkSessionResolver) is required");
      }
      return new JarvisToolGovernance(tools.build(), workSessions);
    }
  }
}
