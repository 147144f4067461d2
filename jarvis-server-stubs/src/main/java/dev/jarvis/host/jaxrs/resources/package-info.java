/**
 * Ready-made resources, one per generated interface, each answering every method from the host kit:
 * register {@link dev.jarvis.host.jaxrs.resources.ProtocolResource#all()} to serve all 15
 * operations.
 */
package dev.jarvis.host.jaxrs.resources;
