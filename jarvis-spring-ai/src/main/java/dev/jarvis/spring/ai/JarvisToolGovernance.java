package dev.jarvis.spring.ai;

import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.governed.GovernedOptions;
import dev.jarvis.client.tools.GovernedTools;
import dev.jarvis.client.tools.ToolActionMapping;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import org.springframework.ai.support.ToolCallbacks;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;

/**
 * Governs a Spring AI agent's tools: one wrapper, and every tool call is a Jarvis governed action
 * (decided under the WorkSession's Policy, reviewed by a human where required within a bounded
 * wait, run only within the approval, recorded). Auto-configured as a bean beside a {@code
 * JarvisClient} bean ({@link JarvisAgentGovernanceAutoConfiguration}); or built by hand:
 *
 * <pre>{@code
 * String answer =
 *     chatClient.prompt("What does the vendor say about TLS?")
 *         .tools(governance.tools(new ResearchTools()))
 *         .toolContext(JarvisToolContext.workSession(workSessionId))
 *         .call()
 *         .content();
 * }</pre>
 *
 * <p>A tool call the mapping does not map never runs; a denied, unapproved or timed-out one never
 * runs either, and the model is told why. Immutable and thread-safe.
 */
public final class JarvisToolGovernance {

  private final GovernedTools tools;
  private final WorkSessionSupplier workSessions;

  private JarvisToolGovernance(GovernedTools tools, WorkSessionSupplier workSessions) {
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
   * The {@code @Tool} methods of {@code toolObjects}, each governed: give it to {@code
   * chatClient.prompt(...).tools(...)} (never the tool objects themselves, which would run
   * ungoverned).
   */
  public ToolCallbackProvider tools(Object... toolObjects) {
    return govern(ToolCallbackProvider.from(ToolCallbacks.from(toolObjects)));
  }

  /** {@code callbacks}, each governed. */
  public ToolCallback[] govern(ToolCallback... callbacks) {
    return Arrays.stream(callbacks).map(this::govern).toArray(ToolCallback[]::new);
  }

  /** {@code callback}, governed (a governed one as it is). */
  public ToolCallback govern(ToolCallback callback) {
    if (callback instanceof GovernedToolCallback already) {
      return already;
    }
    return new GovernedToolCallback(callback, tools, workSessions);
  }

  /** {@code provider} with every callback it provides governed. */
  public ToolCallbackProvider govern(ToolCallbackProvider provider) {
    Objects.requireNonNull(provider, "provider");
    if (provider instanceof GovernedToolCallbackProvider already) {
      return already;
    }
    return new GovernedToolCallbackProvider(provider, this);
  }

  /** Builds a {@link JarvisToolGovernance}: a mapping is required. */
  public static final class Builder {

    private final GovernedTools.Builder tools;
    private WorkSessionSupplier workSessions = Optional::empty;

    private Builder(JarvisClient client) {
      this.tools = GovernedTools.builder(client);
    }

    /** Calls whose tool context names no WorkSession are governed in {@code workSessionId}. */
    public Builder workSession(String workSessionId) {
      Optional<String> id = Optional.of(Objects.requireNonNull(workSessionId, "workSessionId"));
      this.workSessions = () -> id;
      return this;
    }

    /**
     * Calls whose tool context names no WorkSession are governed in the one {@code supplier} names
     * (default: none, so such calls are refused).
     */
    public Builder workSessions(WorkSessionSupplier supplier) {
      this.workSessions = Objects.requireNonNull(supplier, "supplier");
      return this;
    }

    /** Which action each tool call is (for example a {@code ToolActionTable}). Required. */
    public Builder mapping(ToolActionMapping mapping) {
      tools.mapping(mapping);
      return this;
    }

    /** How each action runs: the Policy where known, and the bound on the wait for a human. */
    public Builder options(GovernedOptions options) {
      tools.options(options);
      return this;
    }

    public JarvisToolGovernance build() {
      // Spring AI gives a callback no tool-call id: every call is its own action.
      tools.keyFromCallId(false);
      return new JarvisToolGovernance(tools.build(), workSessions);
    }
  }
}
