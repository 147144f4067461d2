package dev.jarvis.host;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Bearer tokens bound to Actors: a {@link HostAuth} resolver from a list of credentials, each the
 * SHA-256 of a token, the Actor ids its holder may act as, and whether it may administer the host.
 * Only hashes are held: a presented token is hashed and compared with every credential in constant
 * time, so neither the file nor the process memory holds a usable token, and the time taken does
 * not tell which credential came close.
 *
 * <p>The file form ({@code serve --credentials FILE}) is a JSON array:
 *
 * <pre>{@code
 * [{"token_sha256": "<64 lowercase hex of the bearer token>",
 *   "actors": ["actor-human-001"], "admin": false},
 *  {"token_sha256": "...", "actors": ["host-admin"], "admin": true}]
 * }</pre>
 */
public final class Credentials implements HostAuth {

  /**
   * One credential.
   *
   * @param tokenSha256 the SHA-256 of the bearer token (32 bytes)
   * @param actorIds the Actor ids its holder may act as
   * @param admin whether its holder may register Workers and Actors
   */
  public record Credential(byte[] tokenSha256, Set<String> actorIds, boolean admin) {

    public Credential {
      if (tokenSha256.length != 32) {
        throw new IllegalArgumentException("token_sha256 must be 32 bytes");
      }
      tokenSha256 = tokenSha256.clone();
      actorIds = Set.copyOf(actorIds);
    }

    @Override
    public byte[] tokenSha256() {
      return tokenSha256.clone();
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Credential c
          && MessageDigest.isEqual(tokenSha256, c.tokenSha256)
          && actorIds.equals(c.actorIds)
          && admin == c.admin;
    }

    @Override
    public int hashCode() {
      return actorIds.hashCode() * 31 + Boolean.hashCode(admin);
    }

    @Override
    public String toString() {
      // The hash is not a secret, but it identifies a token; it stays out of logs all the same.
      return "Credential[actors=" + actorIds + ", admin=" + admin + "]";
    }
  }

  private static final Pattern HEX_64 = Pattern.compile("[0-9a-f]{64}");
  private static final String BEARER = "Bearer ";

  private final List<Credential> credentials;

  private Credentials(List<Credential> credentials) {
    this.credentials = List.copyOf(credentials);
  }

  /** A resolver over these credentials. */
  public static Credentials of(List<Credential> credentials) {
    return new Credentials(credentials);
  }

  /**
   * Reads a credentials file.
   *
   * @throws IOException if it cannot be read
   * @throws IllegalArgumentException if it is not a JSON array of credentials as documented; the
   *     message names the entry, never its hash
   */
  public static Credentials fromJson(Path file) throws IOException {
    return fromJson(Files.readAllBytes(file), file.toString());
  }

  /**
   * Reads a credentials file's content, from wherever it was kept (a class path resource, say).
   *
   * @param source what to call the file in messages: its path or location
   * @throws IllegalArgumentException if it is not a JSON array of credentials as documented; the
   *     message names the entry, never its hash
   */
  public static Credentials fromJson(byte[] json, String source) {
    JsonNode root;
    try {
      root = JarvisJson.mapper().readTree(json);
    } catch (IOException e) {
      throw new IllegalArgumentException(source + " is not valid JSON", e);
    }
    if (root == null || !root.isArray()) {
      throw new IllegalArgumentException(source + " must hold a JSON array of credentials");
    }
    List<Credential> out = new ArrayList<>();
    for (int i = 0; i < root.size(); i++) {
      out.add(credential(root.get(i), source + " entry " + i));
    }
    return new Credentials(out);
  }

  private static Credential credential(JsonNode entry, String where) {
    if (!entry.isObject()) {
      throw new IllegalArgumentException(where + " is not an object");
    }
    entry
        .fieldNames()
        .forEachRemaining(
            name -> {
              if (!Set.of("token_sha256", "actors", "admin").contains(name)) {
                throw new IllegalArgumentException(where + " has an unknown field " + name);
              }
            });
    JsonNode hash = entry.path("token_sha256");
    if (!hash.isTextual() || !HEX_64.matcher(hash.asText()).matches()) {
      throw new IllegalArgumentException(where + ": token_sha256 must be 64 lowercase hex digits");
    }
    JsonNode actors = entry.path("actors");
    if (!actors.isArray()) {
      throw new IllegalArgumentException(where + ": actors must be an array of Actor ids");
    }
    Set<String> ids = new LinkedHashSet<>();
    for (JsonNode actor : actors) {
      if (!actor.isTextual() || actor.asText().isBlank()) {
        throw new IllegalArgumentException(where + ": actors must be an array of Actor ids");
      }
      ids.add(actor.asText());
    }
    JsonNode admin = entry.path("admin");
    if (!admin.isMissingNode() && !admin.isBoolean()) {
      throw new IllegalArgumentException(where + ": admin must be true or false");
    }
    return new Credential(HexFormat.of().parseHex(hash.asText()), ids, admin.asBoolean(false));
  }

  /** The lowercase hex SHA-256 of a token: what a credentials file holds for it. */
  public static String sha256Hex(String token) {
    return HexFormat.of().formatHex(sha256(token.getBytes(StandardCharsets.UTF_8)));
  }

  @Override
  public Optional<Principal> principal(Optional<String> authorization) {
    if (authorization.isEmpty() || !authorization.get().startsWith(BEARER)) {
      return Optional.empty();
    }
    byte[] presented =
        sha256(
            authorization
                .get()
                .substring(BEARER.length())
                .strip()
                .getBytes(StandardCharsets.UTF_8));
    Optional<Credential> match = Optional.empty();
    // Every credential is compared, whichever matches, so the time does not depend on the position.
    for (Credential credential : credentials) {
      if (MessageDigest.isEqual(presented, credential.tokenSha256) && match.isEmpty()) {
        match = Optional.of(credential);
      }
    }
    return match.map(c -> Principal.of(c.actorIds(), c.admin()));
  }

  /** How many credentials are held (for a start-up line; never their contents). */
  public int size() {
    return credentials.size();
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
