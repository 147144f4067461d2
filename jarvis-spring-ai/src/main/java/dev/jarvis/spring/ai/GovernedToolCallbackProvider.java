package dev.jarvis.spring.ai;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;

/**
 * A {@link ToolCallbackProvider} whose every callback is governed ({@link GovernedToolCallback}).
 * Asks its delegate each time, so a provider whose tools change stays governed.
 */
public final class GovernedToolCallbackProvider implements ToolCallbackProvider {

  private final ToolCallbackProvider delegate;
  private final JarvisToolGovernance governance;

  GovernedToolCallbackProvider(ToolCallbackProvider delegate, JarvisToolGovernance governance) {
    this.delegate = delegate;
    this.governance = governance;
  }

  /** The provider it governs. */
  public ToolCallbackProvider delegate() {
    return delegate;
  }

  @Override
  public ToolCallback[] getToolCallbacks() {
    return governance.govern(delegate.getToolCallbacks());
  }
}
