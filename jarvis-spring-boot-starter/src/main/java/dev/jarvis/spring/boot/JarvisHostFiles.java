package dev.jarvis.spring.boot;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.signature.ActorKeys;
import dev.jarvis.host.Credentials;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.core.io.ContextResource;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;

/**
 * The files the host is configured with (credentials, Policies), read from {@code classpath:},
 * {@code file:} or a plain path. A plain path is a file relative to the working directory, as it
 * was when these properties were paths: {@link JarvisHostPlainPaths} binds the properties' text
 * that way; {@link #resolve} does the same for a class-path-relative resource given in code, where
 * a file that exists wins. A file that cannot be read or does not hold what it must is a {@link
 * JarvisHostFileException} naming the property, the file and the fix.
 */
final class JarvisHostFiles {

  private JarvisHostFiles() {}

  /** The file a location names: a plain path that exists as a file is that file. */
  static Resource resolve(Resource resource) {
    if (resource instanceof ContextResource context && !(resource instanceof FileSystemResource)) {
      String path = context.getPathWithinContext();
      for (String candidate : new String[] {path, "/" + path}) {
        if (!candidate.isEmpty() && Files.isRegularFile(Path.of(candidate))) {
          return new FileSystemResource(candidate);
        }
      }
    }
    return resource;
  }

  static Credentials credentials(Resource location) {
    Resource file = resolve(location);
    byte[] json = read("jarvis.host.credentials-file", file);
    try {
      return Credentials.fromJson(json, file.getDescription());
    } catch (IllegalArgumentException e) {
      throw new JarvisHostFileException(
          "jarvis.host.credentials-file",
          file.getDescription(),
          e.getMessage(),
          "write a JSON array of {\"token_sha256\", \"actors\", \"admin\"} entries (docs/host.md,"
              + " Credentials file)",
          e);
    }
  }

  static ActorKeys actorKeys(Resource location) {
    Resource file = resolve(location);
    byte[] json = read("jarvis.host.actor-keys-file", file);
    try {
      return ActorKeys.fromJson(json, file.getDescription());
    } catch (IllegalArgumentException e) {
      throw new JarvisHostFileException(
          "jarvis.host.actor-keys-file",
          file.getDescription(),
          e.getMessage(),
          "write a JSON object {\"keys\": [{\"key_id\", \"actor_id\", \"public_key\"}],"
              + " \"must_sign\": [...]} (docs/protocol-decisions.md, Actor-signed events)",
          e);
    }
  }

  static JsonNode policy(Resource location) {
    Resource file = resolve(location);
    byte[] json = read("jarvis.host.policies", file);
    try {
      return JarvisJson.mapper().readTree(json);
    } catch (IOException e) {
      throw new JarvisHostFileException(
          "jarvis.host.policies",
          file.getDescription(),
          "not valid JSON",
          "give one JSON Policy record per file",
          e);
    }
  }

  /** The webhook's secret: the file's text without surrounding whitespace, as bytes. */
  static byte[] webhookSecret(Resource location) {
    Resource file = resolve(location);
    byte[] raw = read("jarvis.host.notifications.webhook.secret-file", file);
    return new String(raw, java.nio.charset.StandardCharsets.UTF_8)
        .strip()
        .getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  private static byte[] read(String property, Resource file) {
    if (!file.exists()) {
      throw new JarvisHostFileException(
          property,
          file.getDescription(),
          "no such file",
          "create it, or point " + property + " at it (classpath:, file: or a path)",
          null);
    }
    try (InputStream in = file.getInputStream()) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new JarvisHostFileException(
          property, file.getDescription(), "cannot be read: " + e, "check its permissions", e);
    }
  }
}
