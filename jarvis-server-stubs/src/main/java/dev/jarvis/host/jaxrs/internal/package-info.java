/**
 * Implementation of {@link dev.jarvis.host.jaxrs}: filters, exception mappers and the JSON mapper
 * resolver; not API, may change without notice.
 */
package dev.jarvis.host.jaxrs.internal;
