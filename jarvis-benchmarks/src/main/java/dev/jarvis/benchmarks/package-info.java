/**
 * JMH benchmarks and load runs, run on demand; results and commands in {@code docs/benchmarks.md}.
 */
package dev.jarvis.benchmarks;
