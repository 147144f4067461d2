package dev.jarvis.core.canonical;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.canonical.internal.CanonicalWriter;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A SHA-256 hash in its protocol text form: {@code sha256:} followed by the 64 lowercase hex digits
 * of the digest, such as {@code
 * sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad}.
 *
 * <p>Protocol hashes are taken over RFC 8785 canonical JSON ({@link #ofCanonical(JsonNode)}, {@link
 * #ofCanonicalJson(byte[])}). The first event of a WorkSession chain has no previous event; its
 * previous-hash value is {@link #GENESIS}, which is not a hash text.
 *
 * <p>Instances are immutable; equal digests are equal hashes.
 */
public final class Sha256Hash {

  /** The previous-event hash of a WorkSession's genesis record. Not a {@code sha256:} text. */
  public static final String GENESIS = "hash:protocol-genesis";

  /** What every hash text starts with. */
  public static final String PREFIX = "sha256:";

  /** The length of every hash text: the prefix and 64 hex digits. */
  public static final int TEXT_LENGTH = PREFIX.length() + 64;

  private static final HexFormat HEX = HexFormat.of();

  private static final ThreadLocal<MessageDigest> SHA256 =
      ThreadLocal.withInitial(Sha256Hash::newDigest);

  private final byte[] digest;
  private final String text;

  private Sha256Hash(byte[] digest) {
    this.digest = digest;
    this.text = PREFIX + HEX.formatHex(digest);
  }

  /** The hash of bytes taken as they are; for JSON, the bytes should be canonical already. */
  public static Sha256Hash of(byte[] canonicalBytes) {
    return of(canonicalBytes, 0, canonicalBytes.length);
  }

  /** The hash of {@code bytes[offset, offset + length)}, taken as they are. */
  public static Sha256Hash of(byte[] bytes, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    MessageDigest md = SHA256.get();
    md.update(bytes, offset, length);
    return new Sha256Hash(md.digest());
  }

  /**
   * The hash of the RFC 8785 canonical form of a Jackson tree.
   *
   * @throws CanonicalizationException if the tree has no canonical form
   */
  public static Sha256Hash ofCanonical(JsonNode value) {
    CanonicalWriter w = CanonicalWriter.acquire();
    try {
      w.writeTree(value);
      return of(w.buffer(), 0, w.length());
    } finally {
      w.release();
    }
  }

  /**
   * The hash of the RFC 8785 canonical form of UTF-8 JSON text.
   *
   * @throws CanonicalizationException if the text has no canonical form
   */
  public static Sha256Hash ofCanonicalJson(byte[] json) {
    CanonicalWriter w = CanonicalWriter.acquire();
    try {
      w.writeJson(json, 0, json.length);
      return of(w.buffer(), 0, w.length());
    } finally {
      w.release();
    }
  }

  /**
   * Reads a hash text: {@code sha256:} and 64 lowercase hex digits, nothing else (no uppercase, no
   * whitespace), so that one hash has one text.
   *
   * @throws IllegalArgumentException if {@code text} is not a hash text, {@link #GENESIS} included
   */
  public static Sha256Hash parse(String text) {
    String problem = problem(text);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    return new Sha256Hash(HEX.parseHex(text, PREFIX.length(), TEXT_LENGTH));
  }

  /** Whether {@code text} is a hash text that {@link #parse(String)} reads. */
  public static boolean isValid(String text) {
    return problem(text) == null;
  }

  private static String problem(String text) {
    if (text == null) {
      return "no hash text";
    }
    if (GENESIS.equals(text)) {
      return "'" + GENESIS + "' is the genesis marker, not a sha256 hash";
    }
    if (!text.startsWith(PREFIX)) {
      return "a hash text starts with '" + PREFIX + "'";
    }
    if (text.length() != TEXT_LENGTH) {
      return "a hash text has 64 hex digits after '"
          + PREFIX
          + "', not "
          + (text.length() - PREFIX.length());
    }
    for (int i = PREFIX.length(); i < TEXT_LENGTH; i++) {
      char c = text.charAt(i);
      if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
        return "a hash text has lowercase hex digits only, not '"
            + (Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : c)
            + "' at "
            + i;
      }
    }
    return null;
  }

  /** The text form: {@code sha256:} and 64 lowercase hex digits. */
  public String text() {
    return text;
  }

  /** A copy of the 32 digest bytes. */
  public byte[] digest() {
    return digest.clone();
  }

  /** Whether this is the hash of {@code text}; false for anything that is not a hash text. */
  public boolean matches(String text) {
    return this.text.equals(text);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Sha256Hash && Arrays.equals(digest, ((Sha256Hash) o).digest);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(digest);
  }

  /** The text form. */
  @Override
  public String toString() {
    return text;
  }

  private static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
