package dev.jarvis.cli.load;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A host's answer to one load request, from either HTTP path.
 *
 * @param status the HTTP status
 * @param headers the headers, names lower-case, repeated lines joined by {@code ", "}
 * @param body the body bytes; empty when there were none
 */
record LoadAnswer(int status, Map<String, String> headers, byte[] body) {

  Optional<String> header(String name) {
    return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
  }
}
