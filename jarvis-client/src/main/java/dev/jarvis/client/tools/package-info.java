/**
 * Governed tool calls, for any agent framework: a {@link dev.jarvis.client.tools.ToolActionMapping}
 * says which Jarvis action a model's tool call is (name, target, scope, risk, grants, data
 * sensitivity), and {@link dev.jarvis.client.tools.GovernedTools} runs the call as a governed
 * action ({@code client.governed(ws)}), answering a text for the model for every outcome. The
 * LangChain4j and Spring AI adapters ({@code jarvis-langchain4j}, {@code jarvis-spring-ai}) are
 * thin wrappers over it; {@code docs/agents.md} is the guide.
 */
package dev.jarvis.client.tools;
