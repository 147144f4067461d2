/**
 * The review console: the human's page (shipped as resources of this module), its security headers,
 * and its JSON API acting as the signed-in human through the client. No web runtime: each host
 * binding serves {@code dev.jarvis.console.Console}'s answers.
 */
module dev.jarvis.console {
  requires transitive dev.jarvis.client;

  exports dev.jarvis.console;
}
