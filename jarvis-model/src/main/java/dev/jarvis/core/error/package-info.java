/**
 * Protocol errors: the {@code error_id} catalogue with its remediations, violations and the
 * exception that carries one.
 */
package dev.jarvis.core.error;
