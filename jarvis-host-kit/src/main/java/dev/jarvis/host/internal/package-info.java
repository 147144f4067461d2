/**
 * Implementation of {@link dev.jarvis.host}: the request guard, Actor authority and the protocol's
 * rules; not API, may change without notice.
 */
package dev.jarvis.host.internal;
