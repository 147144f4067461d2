package dev.jarvis.cli.load;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.jarvis.core.canonical.JcsCanonicalizer;
import dev.jarvis.core.canonical.Sha256Hash;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.hash.EventHash;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * One WorkSession's chained events written as bytes, for the light load: the canonical form of the
 * event {@code EventChain.next} makes from a draft is cut once, at the four fields that change from
 * event to event ({@code id}, {@code timestamp}, {@code sequence}, {@code previous_hash}); each
 * event is then those pieces with the four values put back, hashed as they are (they are the
 * canonical form), and sent with its {@code event_hash} added. The host canonicalizes and hashes
 * what it receives, so an event written wrong here is refused, never silently accepted.
 *
 * <p>Not thread-safe: one per connection.
 */
final class EventTemplate {

  /** The fields that change per event, each with the marker that stands for it in the draft. */
  private enum Slot {
    ID("id"),
    TIMESTAMP("timestamp"),
    SEQUENCE("sequence"),
    PREVIOUS_HASH("previous_hash");

    final String field;
    final byte[] marker;

    Slot(String field) {
      this.field = field;
      // A string no id, time or hash holds, needing no escape; quoted as the canonical form has it.
      this.marker = ("\"<<" + field + ">>\"").getBytes(StandardCharsets.US_ASCII);
    }
  }

  private static final byte[] EVENT_HASH_HEAD =
      (",\"" + "event_hash" + "\":\"").getBytes(StandardCharsets.US_ASCII);
  private static final HexFormat HEX = HexFormat.of();

  /** The canonical form between the slots: {@code pieces[i]} comes before {@code slots[i]}. */
  private final byte[][] pieces;

  private final Slot[] slots;
  private final MessageDigest sha256;

  /**
   * @param draft the event as {@code ProtocolRecords.addressedEvent} makes it (tree form); its id,
   *     timestamp and chain fields are replaced per event
   */
  EventTemplate(ObjectNode draft) {
    ObjectNode marked = EventChain.next(ChainCursor.GENESIS, draft);
    for (String excluded : EventHash.EXCLUDED) {
      marked.remove(excluded);
    }
    for (Slot slot : Slot.values()) {
      marked.put(
          slot.field,
          new String(slot.marker, 1, slot.marker.length - 2, StandardCharsets.US_ASCII));
    }
    byte[] canonical = JcsCanonicalizer.canonicalize(marked);
    List<byte[]> cut = new ArrayList<>();
    List<Slot> order = new ArrayList<>();
    int from = 0;
    while (true) {
      int at = Integer.MAX_VALUE;
      Slot next = null;
      for (Slot slot : Slot.values()) {
        int found = indexOf(canonical, slot.marker, from);
        if (found >= 0 && found < at) {
          at = found;
          next = slot;
        }
      }
      if (next == null) {
        break;
      }
      cut.add(Arrays.copyOfRange(canonical, from, at));
      order.add(next);
      from = at + next.marker.length;
    }
    if (order.size() != Slot.values().length) {
      throw new IllegalStateException("the event's canonical form lost a field: " + order);
    }
    // The rest, without its closing brace: event_hash goes there.
    cut.add(Arrays.copyOfRange(canonical, from, canonical.length - 1));
    this.pieces = cut.toArray(new byte[0][]);
    this.slots = order.toArray(new Slot[0]);
    try {
      this.sha256 = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /** An event written, and its hash. */
  record Written(byte[] body, String eventHash) {}

  /**
   * The event after {@code cursor}: its body as sent (the canonical form plus {@code event_hash})
   * and its hash.
   *
   * @param timestamp RFC 3339 text, as the host reads a {@code date-time}
   */
  Written next(ChainCursor cursor, String id, String timestamp) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(512);
    for (int i = 0; i < slots.length; i++) {
      out.writeBytes(pieces[i]);
      switch (slots[i]) {
        case ID -> string(out, id);
        case TIMESTAMP -> string(out, timestamp);
        case SEQUENCE ->
            out.writeBytes(
                Long.toString(cursor.revision() + 1).getBytes(StandardCharsets.US_ASCII));
        case PREVIOUS_HASH -> string(out, cursor.lastEventHash());
      }
    }
    out.writeBytes(pieces[slots.length]);
    int canonicalLength = out.size();
    out.write('}');
    byte[] canonical = out.toByteArray();
    sha256.reset();
    sha256.update(canonical);
    String hash = Sha256Hash.PREFIX + HEX.formatHex(sha256.digest());
    // The body: the canonical form with event_hash added before the closing brace.
    byte[] hashBytes = hash.getBytes(StandardCharsets.US_ASCII);
    byte[] body =
        Arrays.copyOf(canonical, canonicalLength + EVENT_HASH_HEAD.length + hashBytes.length + 2);
    int at = canonicalLength;
    System.arraycopy(EVENT_HASH_HEAD, 0, body, at, EVENT_HASH_HEAD.length);
    at += EVENT_HASH_HEAD.length;
    System.arraycopy(hashBytes, 0, body, at, hashBytes.length);
    at += hashBytes.length;
    body[at++] = '"';
    body[at] = '}';
    return new Written(body, hash);
  }

  /**
   * A string value in canonical form: as it is between quotes when it needs no escaping (the ids,
   * times and hashes of a load run), else through the canonicalizer.
   */
  private static void string(ByteArrayOutputStream out, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
        out.writeBytes(JcsCanonicalizer.canonicalize(TextNode.valueOf(value)));
        return;
      }
    }
    out.write('"');
    out.writeBytes(value.getBytes(StandardCharsets.US_ASCII));
    out.write('"');
  }

  private static int indexOf(byte[] in, byte[] what, int from) {
    outer:
    for (int i = from; i <= in.length - what.length; i++) {
      for (int j = 0; j < what.length; j++) {
        if (in[i + j] != what[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
