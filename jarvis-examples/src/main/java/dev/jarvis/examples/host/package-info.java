/** A complete minimal host on the JAX-RS binding, to copy from. */
package dev.jarvis.examples.host;
