package dev.jarvis.core.exchange;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * A request body read once: the bytes exactly as they travelled (what the idempotency record, the
 * fingerprint's owner and a replayed answer keep) and the one tree {@link BodyReader} read from
 * them (what the validator and the rules look at). The bytes are never handed out to be written:
 * {@link #bytes()} copies, {@link #buffer()} is read-only.
 *
 * <p>The tree is Jackson's mutable {@link JsonNode}; whoever needs a changed record copies it
 * ({@code deepCopy}) first, as the rules do.
 */
public final class RequestBody {

  private static final RequestBody EMPTY = new RequestBody(new byte[0], MissingNode.getInstance());

  private final byte[] bytes;
  private final JsonNode tree;

  RequestBody(byte[] bytes, JsonNode tree) {
    this.bytes = bytes;
    this.tree = tree;
  }

  /** No body: a read. Its tree is a missing node. */
  public static RequestBody empty() {
    return EMPTY;
  }

  /**
   * A body whose tree was read elsewhere (a test, a tool); nothing checks that the two agree. The
   * bytes are copied.
   */
  public static RequestBody of(byte[] bytes, JsonNode tree) {
    return new RequestBody(
        Objects.requireNonNull(bytes, "bytes").clone(), Objects.requireNonNull(tree, "tree"));
  }

  /** The tree; a missing node for no body. */
  public JsonNode tree() {
    return tree;
  }

  /** A copy of the bytes as they travelled. */
  public byte[] bytes() {
    return bytes.clone();
  }

  /** The bytes, read-only and uncopied. */
  public ByteBuffer buffer() {
    return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
  }

  /** Writes the bytes as they travelled. */
  public void writeTo(OutputStream out) throws IOException {
    out.write(bytes);
  }

  /** How many bytes travelled. */
  public int size() {
    return bytes.length;
  }

  /** Whether no byte travelled. */
  public boolean isEmpty() {
    return bytes.length == 0;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RequestBody other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    // Never the content: a body may carry a secret.
    return "RequestBody[" + bytes.length + " bytes]";
  }
}
