/**
 * The command-line tool {@code jarvis-cli.jar}: {@link dev.jarvis.cli.JarvisCli} and its
 * subcommands (demo, serve, conformance, operations and the protocol tools), parsed with picocli.
 * Not a library API: use the jar, whose subcommands, flags and exit codes are stable.
 */
package dev.jarvis.cli;
