/**
 * The protocol core shared by client and host: the strict wire mapping {@link
 * dev.jarvis.core.JarvisJson}, the committed spec ({@link dev.jarvis.core.JarvisSpec}) and its
 * operations ({@link dev.jarvis.core.ProtocolOperations}).
 */
package dev.jarvis.core;
