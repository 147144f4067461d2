/**
 * The protocol's request and response headers: names, parsing with the {@code error_id} of each
 * refusal, and formatting.
 */
package dev.jarvis.core.headers;
