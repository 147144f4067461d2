/**
 * Jarvis for Spring AI: {@link dev.jarvis.spring.ai.JarvisToolGovernance} wraps an agent's {@code
 * ToolCallback}s (and {@code ToolCallbackProvider}s) so that every tool call is a governed action,
 * auto-configured beside a {@code JarvisClient} bean; {@code docs/agents.md} is the guide.
 */
package dev.jarvis.spring.ai;
