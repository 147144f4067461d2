package dev.jarvis.cli;

import dev.jarvis.client.JarvisClientOptions;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The options that name a host and who acts on it, shared by the subcommands that call a host as
 * one Actor ({@code audit}, {@code review}, {@code watch}): {@code --base-url}, {@code --token},
 * {@code --actor}. A picocli mixin. The token goes into the {@code Authorization} header only;
 * nothing here prints it.
 */
final class HostOptions {

  @Option(names = "--base-url", paramLabel = "URL", description = "the host's base URL")
  Optional<String> baseUrl = Optional.empty();

  @Option(
      names = "--token",
      paramLabel = "T",
      description = "the host's bearer token for that Actor (never printed)")
  Optional<String> token = Optional.empty();

  @Option(names = "--actor", paramLabel = "ID", description = "the Actor to act as")
  Optional<String> actor = Optional.empty();

  /** Whether any of the three was given. */
  boolean anyGiven() {
    return baseUrl.isPresent() || token.isPresent() || actor.isPresent();
  }

  /** Whether all three were given. */
  boolean allGiven() {
    return baseUrl.isPresent() && token.isPresent() && actor.isPresent();
  }

  /**
   * Client options for the host, acting as the Actor, the user agent suffixed with {@code
   * jarvis-cli-<subcommand>}.
   *
   * @throws CliException if one of the three is missing
   */
  JarvisClientOptions.Builder client(String subcommand) throws CliException {
    if (!allGiven()) {
      throw new CliException("give --base-url, --token and --actor");
    }
    return JarvisClientOptions.builder()
        .baseUri(baseUrl.get())
        .hostAuth("Bearer " + token.get())
        .actorId(actor.get())
        .userAgentSuffix("jarvis-cli-" + subcommand);
  }
}
