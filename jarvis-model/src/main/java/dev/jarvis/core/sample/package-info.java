/**
 * Small, spec-valid records for tests, examples and the conformance suite, and the sample Policy.
 */
package dev.jarvis.core.sample;
