/**
 * Jarvis for LangChain4j: {@link dev.jarvis.langchain4j.JarvisToolGovernance} wraps an agent's
 * tools ({@code @Tool} objects, a {@code ToolProvider}, {@code ToolExecutor}s) so that every tool
 * execution is a governed action; {@code docs/agents.md} is the guide.
 */
package dev.jarvis.langchain4j;
