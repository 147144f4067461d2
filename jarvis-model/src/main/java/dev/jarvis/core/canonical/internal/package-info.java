/** Implementation of {@link dev.jarvis.core.canonical}; not API, may change without notice. */
package dev.jarvis.core.canonical.internal;
