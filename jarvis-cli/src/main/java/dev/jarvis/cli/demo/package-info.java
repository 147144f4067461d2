/**
 * The agent walkthrough the {@code demo} subcommand runs: registration, WorkSession, decisions, a
 * human's Review, the approved action, Takeover, learning, completion and the exports, all through
 * {@code JarvisClient}.
 */
package dev.jarvis.cli.demo;
