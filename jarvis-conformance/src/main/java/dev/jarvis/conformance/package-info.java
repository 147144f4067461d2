/**
 * The conformance suite: {@link dev.jarvis.conformance.ConformanceSuite} judges any Jarvis host
 * live over HTTP, or from exchanges recorded earlier, and writes JUnit XML and Markdown reports.
 */
package dev.jarvis.conformance;
