/** Implementation of {@link dev.jarvis.client}; not API, may change without notice. */
package dev.jarvis.client.internal;
