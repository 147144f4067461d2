/**
 * Governed actions: one tool call of an agent, run under the Jarvis Policy from decision to record
 * ({@link dev.jarvis.client.governed.GovernedAction}, made by {@code
 * client.governed(workSessionId)}). {@code docs/governed-actions.md} is the guide.
 */
package dev.jarvis.client.governed;
