package dev.jarvis.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The committed protocol document, {@code spec/jarvis-openapi.yaml}, as shipped inside this jar.
 *
 * <p>It is the single source of truth: the model and the payload validator's checks are generated
 * from it at build time, and the protocol core reads its other rules from it at run time.
 */
public final class JarvisSpec {

  /** Classpath location of the spec inside the {@code jarvis-model} jar, byte for byte. */
  public static final String RESOURCE = "/dev/jarvis/spec/jarvis-openapi.yaml";

  /**
   * Classpath location of the same document as JSON, written by the build ({@code
   * src/build/SpecToJson.java}) so that reading it needs no YAML parser at run time.
   */
  public static final String JSON_RESOURCE = "/dev/jarvis/spec/jarvis-openapi.json";

  /**
   * SHA-256 of the protocol document this SDK was built from (v0.1). A build whose spec differs
   * fails its tests: the spec is copied verbatim, never edited.
   */
  public static final String SHA256 =
      "83680084b515bebf6cbc12a5a2e37b9a44061d6d367133794151dbd6712b2d01";

  /** The protocol version this SDK speaks, as sent in {@code Jarvis-Protocol-Version}. */
  public static final String PROTOCOL_VERSION = "v0.1";

  private JarvisSpec() {}

  /** The spec parsed as a JSON tree (from its JSON form, {@link #JSON_RESOURCE}). */
  public static JsonNode tree() {
    try (InputStream in = JarvisSpec.class.getResourceAsStream(JSON_RESOURCE)) {
      if (in == null) {
        throw new java.io.FileNotFoundException("classpath resource " + JSON_RESOURCE);
      }
      return new ObjectMapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Opens the spec's bytes; the caller closes the stream. */
  public static InputStream open() {
    InputStream in = JarvisSpec.class.getResourceAsStream(RESOURCE);
    if (in == null) {
      throw new UncheckedIOException(
          new java.io.FileNotFoundException("classpath resource " + RESOURCE));
    }
    return in;
  }
}
