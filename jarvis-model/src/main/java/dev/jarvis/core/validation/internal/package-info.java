/** Implementation of {@link dev.jarvis.core.validation}; not API, may change without notice. */
package dev.jarvis.core.validation.internal;
