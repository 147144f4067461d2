/**
 * The one load generator: {@code jarvis-cli load} and the benchmarks' in-JVM load run drive a host
 * through {@link dev.jarvis.cli.load.LoadGenerator}, with records from the core's {@code
 * ProtocolRecords} sent over the raw transport ({@code dev.jarvis.client.raw}).
 */
package dev.jarvis.cli.load;
