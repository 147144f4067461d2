/**
 * The host kit's JAX-RS binding: {@link dev.jarvis.host.jaxrs.JarvisHostFeature} plugs a {@code
 * ProtocolHost} into any JAX-RS runtime, and {@link dev.jarvis.host.jaxrs.ServerOperations} reads
 * the generated interfaces. The {@code internal} package is not API.
 */
package dev.jarvis.host.jaxrs;
