/**
 * Validation of raw payloads against the spec's schemas and {@code x-jarvis-*} rules, each
 * violation with its {@code error_id} and JSON pointer. The {@code internal} package is not API.
 */
package dev.jarvis.core.validation;
