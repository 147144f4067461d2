/**
 * The reference host: the host kit on its thin Undertow binding (default) or on its JAX-RS binding
 * with Jersey and the JDK HTTP server ({@code HttpRuntime}), bound to loopback; what {@code
 * jarvis-cli serve} and {@code demo} run.
 */
package dev.jarvis.host.reference;
