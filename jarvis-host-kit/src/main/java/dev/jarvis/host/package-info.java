/**
 * The host kit: the Jarvis protocol for hosts, independent of any web runtime. {@link
 * dev.jarvis.host.ProtocolHost} checks a request ({@code check}) and applies it ({@code handle});
 * {@link dev.jarvis.host.HostConfig} configures it; the store interfaces are the SPI a durable
 * backend implements. Bindings (JAX-RS in {@code jarvis-server-stubs}, WireMock in {@code
 * jarvis-testkit}) only carry bytes. The {@code internal} package is not API.
 */
package dev.jarvis.host;
