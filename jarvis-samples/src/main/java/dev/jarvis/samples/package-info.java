/**
 * Small, spec-valid records for tests, examples, the test kit and the conformance suite, and the
 * sample Policy. Not part of the model's API: sample data a user's code never needs, kept in its
 * own artifact so the tools that share it agree on it.
 */
package dev.jarvis.samples;
