package dev.jarvis.cli;

import dev.jarvis.core.signature.ActorKeys;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/** The {@code --actor-keys FILE} of {@code serve} and {@code audit}: the Actors' public keys. */
final class ActorKeysFile {

  static final String DESCRIPTION =
      "a JSON object {\"keys\": [{\"key_id\", \"actor_id\", \"public_key\" (base64 X.509"
          + " Ed25519), \"revoked_at\"?}], \"must_sign\": [actor ids]} (docs/protocol-decisions.md)";

  private ActorKeysFile() {}

  /** The keys the file holds, if a file was given. */
  static Optional<ActorKeys> read(Optional<Path> file) throws CliException {
    if (file.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(ActorKeys.fromJson(file.get()));
    } catch (IOException e) {
      throw new CliException("cannot read Actor keys file " + file.get());
    } catch (IllegalArgumentException e) {
      throw new CliException(e.getMessage());
    }
  }
}
