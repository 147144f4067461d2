/**
 * The host kit on undertow-core, beside the JAX-RS binding: {@link
 * dev.jarvis.host.undertow.ProtocolHandler} answers every request through {@code
 * ProtocolHost.answer}, {@link dev.jarvis.host.undertow.LimitedServer} builds a server holding the
 * {@link dev.jarvis.host.undertow.HttpLimits}.
 */
package dev.jarvis.host.undertow;
