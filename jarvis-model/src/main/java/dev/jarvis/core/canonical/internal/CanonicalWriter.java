package dev.jarvis.core.canonical.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.JsonTokenId;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NumericNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.jarvis.core.canonical.CanonicalizationException;
import dev.jarvis.core.canonical.CanonicalizationException.Reason;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

/**
 * Writes the RFC 8785 canonical form of one JSON value into a growing byte buffer.
 *
 * <p>Raw JSON is read token by token with Jackson's streaming parser, so that duplicate names and
 * the number text are seen as sent. Each value is written canonically as soon as it is read; each
 * object member is written as {@code "name":value,} and remembered by its name and start offset.
 * When an object ends, its members are put in order of their names' UTF-16 code units ({@link
 * String#compareTo}) by moving those byte segments, unless they already were in order, and the last
 * comma becomes the closing brace. Nested objects are therefore ordered once, before their parent.
 *
 * <p>An instance is single-threaded and reused through {@link #acquire()} / {@link #release()}, so
 * that its buffers survive between calls on the same thread; buffers that grew past 1 MiB (or room
 * for 64Ki members) are dropped on release. It also keeps the UTF-8 of up to 256 recent member
 * names of at most 64 chars, which recur from one document to the next.
 */
public final class CanonicalWriter {

  /** The deepest nesting accepted, for raw JSON and trees alike: Jackson's default limit. */
  public static final int MAX_DEPTH = StreamReadConstraints.DEFAULT_MAX_DEPTH;

  /**
   * Strict JSON, except that NaN and infinities are read as numbers so that they are refused as
   * such, with the pointer of where they stand, rather than as a syntax error.
   */
  private static final JsonFactory FACTORY =
      JsonFactory.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

  private static final ThreadLocal<CanonicalWriter> CACHE =
      ThreadLocal.withInitial(CanonicalWriter::new);

  private static final int INITIAL = 4096;
  private static final int KEEP = 1 << 20;
  private static final int MEMBERS = 64;
  private static final int KEEP_MEMBERS = 1 << 16;
  private static final long MAX_SAFE_INTEGER = 1L << 53;
  private static final int NAME_CACHE = 256;
  private static final int NAME_CACHE_MAX_LENGTH = 64;

  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  /**
   * For ASCII: 0 is written as is, -1 as a backslash-u escape, else the letter after a backslash.
   */
  private static final byte[] ESCAPE = new byte[128];

  static {
    for (int c = 0; c < 0x20; c++) {
      ESCAPE[c] = -1;
    }
    ESCAPE['\b'] = 'b';
    ESCAPE['\t'] = 't';
    ESCAPE['\n'] = 'n';
    ESCAPE['\f'] = 'f';
    ESCAPE['\r'] = 'r';
    ESCAPE['"'] = '"';
    ESCAPE['\\'] = '\\';
  }

  private static final int IN_ORDER = -1;
  private static final int REORDERED = -2;

  private byte[] buf = new byte[INITIAL];
  private int len;
  private byte[] scratch = new byte[INITIAL];
  private char[] chars = new char[256];

  // The members of the objects being written, as a stack; perm[base, top) orders [base, top).
  private String[] names;
  private long[] keys;
  private int[] starts;
  private JsonNode[] values;
  private int[] perm;
  private int[] permTmp;
  private int top;
  private int highWater;

  // Raw JSON: the member base of each open container. Trees: the path, for pointers.
  private int[] frames = new int[32];
  private String[] pathNames = new String[32];
  private int[] pathIndexes = new int[32];

  // The UTF-8 of recent member names, which recur from one document to the next.
  private final String[] cachedNames = new String[NAME_CACHE];
  private final byte[][] cachedNameBytes = new byte[NAME_CACHE][];

  private boolean inUse;

  private CanonicalWriter() {
    newMemberArrays(MEMBERS);
  }

  private void newMemberArrays(int n) {
    names = new String[n];
    keys = new long[n];
    starts = new int[n];
    values = new JsonNode[n];
    perm = new int[n];
    permTmp = new int[n];
  }

  /** This thread's writer, empty; call {@link #release()} when done with its bytes. */
  public static CanonicalWriter acquire() {
    CanonicalWriter w = CACHE.get();
    if (w.inUse) {
      w = new CanonicalWriter();
    }
    w.inUse = true;
    w.len = 0;
    w.top = 0;
    return w;
  }

  /** Gives the writer back; its bytes are not to be used after this. */
  public void release() {
    Arrays.fill(names, 0, highWater, null);
    Arrays.fill(values, 0, highWater, null);
    Arrays.fill(pathNames, null);
    highWater = 0;
    top = 0;
    len = 0;
    if (buf.length > KEEP) {
      buf = new byte[INITIAL];
    }
    if (scratch.length > KEEP) {
      scratch = new byte[INITIAL];
    }
    if (chars.length > KEEP) {
      chars = new char[256];
    }
    if (names.length > KEEP_MEMBERS) {
      newMemberArrays(MEMBERS);
    }
    inUse = false;
  }

  /** The buffer holding the canonical bytes, valid in [0, {@link #length()}). */
  public byte[] buffer() {
    return buf;
  }

  /** How many canonical bytes {@link #buffer()} holds. */
  public int length() {
    return len;
  }

  /** A copy of the canonical bytes. */
  public byte[] toByteArray() {
    return Arrays.copyOf(buf, len);
  }

  // ---------------------------------------------------------------- raw JSON

  /** Canonicalizes the UTF-8 JSON text {@code json[off, off + n)}. */
  public void writeJson(byte[] json, int off, int n) {
    checkStart(json, off, n);
    try (JsonParser p = FACTORY.createParser(json, off, n)) {
      writeParsed(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // no I/O happens on an array; for the signature only
    }
  }

  /** Canonicalizes the JSON text {@code json}. */
  public void writeJson(String json) {
    try (JsonParser p = FACTORY.createParser(json)) {
      writeParsed(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Jackson would skip a UTF-8 byte order mark and read UTF-16 or UTF-32; RFC 8785 is UTF-8. */
  private static void checkStart(byte[] json, int off, int n) {
    if (n > 0 && json[off] < 0) {
      throw new CanonicalizationException(
          Reason.MALFORMED_JSON,
          "",
          String.format(
              "input starts with byte 0x%02x, not a JSON value (a byte order mark?)",
              json[off] & 0xff),
          null);
    }
    for (int i = 0; i < Math.min(n, 4); i++) {
      if (json[off + i] == 0) {
        throw new CanonicalizationException(
            Reason.MALFORMED_JSON,
            "",
            "input is not UTF-8 (a NUL byte in UTF-16 or UTF-32?)",
            null);
      }
    }
  }

  private void writeParsed(JsonParser p) throws IOException {
    try {
      writeTokens(p);
    } catch (StreamConstraintsException e) {
      throw new CanonicalizationException(
          Reason.LIMIT_EXCEEDED, pointer(p), e.getOriginalMessage() + where(e), e);
    } catch (JsonProcessingException e) {
      Reason reason = reason(e.getOriginalMessage());
      String at = reason == Reason.LONE_SURROGATE ? objectPointer(p) : pointer(p);
      throw new CanonicalizationException(reason, at, e.getOriginalMessage() + where(e), e);
    }
  }

  /**
   * Jackson itself refuses an escaped lone surrogate in a name (not in a string value, which is
   * left to {@link #writeChars}), before the name is known: the pointer is then the object's.
   */
  private static Reason reason(String message) {
    return message != null && message.contains("surrogate") && !message.startsWith("Invalid UTF-8")
        ? Reason.LONE_SURROGATE
        : Reason.MALFORMED_JSON;
  }

  private void writeTokens(JsonParser p) throws IOException {
    JsonToken tok = p.nextToken();
    if (tok == null) {
      throw new CanonicalizationException(Reason.MALFORMED_JSON, "", "no JSON value", null);
    }
    int depth = 0;
    while (true) {
      switch (tok.id()) {
        case JsonTokenId.ID_START_OBJECT:
          pushFrame(depth++);
          append('{');
          tok = p.nextToken();
          continue;
        case JsonTokenId.ID_START_ARRAY:
          pushFrame(depth++);
          append('[');
          tok = p.nextToken();
          continue;
        case JsonTokenId.ID_FIELD_NAME:
          {
            String name = p.currentName();
            pushMember(name, null);
            if (!writeName(name)) {
              throw loneSurrogate(pointer(p), "name");
            }
            append(':');
            tok = p.nextToken();
            continue;
          }
        case JsonTokenId.ID_END_OBJECT:
          endObject(frames[--depth], p);
          break;
        case JsonTokenId.ID_END_ARRAY:
          depth--;
          if (buf[len - 1] == '[') {
            append(']');
          } else {
            buf[len - 1] = ']'; // the comma after the last element
          }
          break;
        case JsonTokenId.ID_STRING:
          if (!writeChars(p.getTextCharacters(), p.getTextOffset(), p.getTextLength())) {
            throw loneSurrogate(pointer(p), "string");
          }
          break;
        case JsonTokenId.ID_NUMBER_INT:
          writeIntegerToken(p);
          break;
        case JsonTokenId.ID_NUMBER_FLOAT:
          writeFloatToken(p);
          break;
        case JsonTokenId.ID_TRUE:
          appendAscii("true");
          break;
        case JsonTokenId.ID_FALSE:
          appendAscii("false");
          break;
        case JsonTokenId.ID_NULL:
          appendAscii("null");
          break;
        default:
          throw new CanonicalizationException(
              Reason.MALFORMED_JSON, pointer(p), "unexpected token " + tok, null);
      }
      if (depth == 0) {
        break;
      }
      append(','); // ends every element and member; the container's end takes the last one back
      tok = p.nextToken();
      if (tok == null) {
        throw new CanonicalizationException(
            Reason.MALFORMED_JSON, pointer(p), "unexpected end of input", null);
      }
    }
    JsonToken after;
    try {
      after = p.nextToken();
    } catch (JsonProcessingException e) {
      throw new CanonicalizationException(
          Reason.TRAILING_CONTENT,
          "",
          "content after the JSON value: " + e.getOriginalMessage() + where(e),
          e);
    }
    if (after != null) {
      throw new CanonicalizationException(
          Reason.TRAILING_CONTENT, "", "content after the JSON value: " + after, null);
    }
  }

  private void pushFrame(int depth) {
    if (depth == frames.length) {
      frames = Arrays.copyOf(frames, depth * 2);
    }
    frames[depth] = top;
  }

  /** At the end of an object: orders its members' segments and closes it. */
  private void endObject(int base, JsonParser p) {
    int n = top - base;
    if (n == 0) {
      append('}');
      return;
    }
    int order = order(base, n);
    if (order >= 0) {
      // At its end, the parser's context is the object's parent, which points at the object.
      throw duplicate(pointer(p), names[order]);
    }
    if (order == REORDERED) {
      int regionStart = starts[base];
      int regionLen = len - regionStart;
      if (scratch.length < regionLen) {
        scratch = new byte[Math.max(regionLen, scratch.length * 2)];
      }
      System.arraycopy(buf, regionStart, scratch, 0, regionLen);
      int j = regionStart;
      int end = base + n;
      for (int i = base; i < end; i++) {
        int m = perm[i];
        int s = starts[m];
        int e = m + 1 < end ? starts[m + 1] : len;
        System.arraycopy(scratch, s - regionStart, buf, j, e - s);
        j += e - s;
      }
    }
    buf[len - 1] = '}'; // the comma after the last member
    top = base; // the slots above are overwritten or, at release, cleared
  }

  private void writeIntegerToken(JsonParser p) throws IOException {
    JsonParser.NumberType type = p.getNumberType();
    if (type == JsonParser.NumberType.INT) {
      ensure(EcmaNumber.MAX_LENGTH);
      len = EcmaNumber.writeSafeInteger(p.getIntValue(), buf, len);
    } else if (type == JsonParser.NumberType.LONG) {
      writeLong(p.getLongValue());
    } else {
      writeNumberText(p.getText(), p);
    }
  }

  private void writeFloatToken(JsonParser p) throws IOException {
    writeNumberText(p.getText(), p);
  }

  /** A JSON number's text, or one of the non-numeric tokens that the factory lets through. */
  private void writeNumberText(String text, JsonParser p) {
    char last = text.charAt(text.length() - 1);
    if (last < '0'
        || last > '9') { // NaN, Infinity, INF, with any sign: JSON numbers end in a digit
      throw new CanonicalizationException(
          Reason.NON_FINITE_NUMBER, pointer(p), "'" + text + "' is not a finite number", null);
    }
    double d = Double.parseDouble(text);
    if (!Double.isFinite(d)) {
      throw new CanonicalizationException(
          Reason.NUMBER_OUT_OF_RANGE,
          pointer(p),
          "number " + abbreviate(text) + " is beyond the range of IEEE 754 doubles",
          null);
    }
    writeDouble(d);
  }

  private static String pointer(JsonParser p) {
    return p.getParsingContext().pathAsPointer().toString();
  }

  /**
   * The pointer of the object whose member name {@code p} is reading. Until the new name is whole,
   * Jackson's context still holds the previous member's name, which is dropped here.
   */
  public static String objectPointer(JsonParser p) {
    JsonStreamContext context = p.getParsingContext();
    JsonPointer path = context.pathAsPointer();
    return context.inObject() && context.getCurrentName() != null
        ? path.head().toString()
        : path.toString();
  }

  private static String where(JsonProcessingException e) {
    JsonLocation at = e.getLocation();
    return at == null || at.getLineNr() < 0
        ? ""
        : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
  }

  // ---------------------------------------------------------------- trees

  /** Canonicalizes a Jackson tree. */
  public void writeTree(JsonNode node) {
    Objects.requireNonNull(node, "node");
    writeNode(node, 0);
  }

  private void writeNode(JsonNode node, int depth) {
    // The usual node classes first: instanceof is cheaper than the megamorphic getNodeType().
    if (node instanceof TextNode) {
      writeTextNode(node, depth);
      return;
    } else if (node instanceof ObjectNode) {
      writeObjectNode(node, depth);
      return;
    } else if (node instanceof NumericNode) {
      writeNumberNode(node, depth);
      return;
    } else if (node instanceof ArrayNode) {
      writeArrayNode(node, depth);
      return;
    }
    switch (node.getNodeType()) {
      case OBJECT:
        writeObjectNode(node, depth);
        return;
      case ARRAY:
        writeArrayNode(node, depth);
        return;
      case STRING:
        writeTextNode(node, depth);
        return;
      case NUMBER:
        writeNumberNode(node, depth);
        return;
      case BOOLEAN:
        appendAscii(node.booleanValue() ? "true" : "false");
        return;
      case NULL:
        appendAscii("null");
        return;
      default:
        throw new CanonicalizationException(
            Reason.UNSUPPORTED_VALUE,
            treePointer(depth),
            "a " + node.getNodeType() + " node is no JSON value",
            null);
    }
  }

  private void writeTextNode(JsonNode node, int depth) {
    if (!writeString(node.textValue())) {
      throw loneSurrogate(treePointer(depth), "string");
    }
  }

  private void writeArrayNode(JsonNode node, int depth) {
    checkDepth(depth);
    append('[');
    int n = node.size();
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        append(',');
      }
      setPath(depth, null, i);
      writeNode(node.get(i), depth + 1);
    }
    append(']');
  }

  private void writeObjectNode(JsonNode node, int depth) {
    checkDepth(depth);
    int base = top;
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      pushMember(e.getKey(), e.getValue());
    }
    int n = top - base;
    if (n == 0) {
      appendAscii("{}");
      return;
    }
    int order = order(base, n);
    if (order >= 0) {
      throw duplicate(treePointer(depth), names[order]);
    }
    append('{');
    int end = base + n;
    for (int i = base; i < end; i++) {
      int m = perm[i];
      if (i > base) {
        append(',');
      }
      String name = names[m];
      setPath(depth, name, -1);
      if (!writeName(name)) {
        throw loneSurrogate(treePointer(depth + 1), "name");
      }
      append(':');
      writeNode(values[m], depth + 1);
    }
    append('}');
    top = base; // the slots above are overwritten or, at release, cleared
  }

  private void writeNumberNode(JsonNode node, int depth) {
    JsonParser.NumberType type = node.numberType();
    double d;
    if (type == JsonParser.NumberType.INT || type == JsonParser.NumberType.LONG) {
      writeLong(node.longValue());
      return;
    } else if (type == JsonParser.NumberType.DOUBLE) {
      d = node.doubleValue();
    } else if (type == JsonParser.NumberType.FLOAT) {
      // As the decimal text Jackson writes for a float (Float.toString), read as a double.
      float f = node.floatValue();
      d = Float.isFinite(f) ? Double.parseDouble(Float.toString(f)) : f;
    } else if (type == JsonParser.NumberType.BIG_INTEGER) {
      d = node.bigIntegerValue().doubleValue();
      if (Double.isInfinite(d)) {
        throw outOfRange(depth, node);
      }
    } else {
      d = node.decimalValue().doubleValue();
      if (Double.isInfinite(d)) {
        throw outOfRange(depth, node);
      }
    }
    if (!Double.isFinite(d)) {
      throw new CanonicalizationException(
          Reason.NON_FINITE_NUMBER, treePointer(depth), d + " is not a finite number", null);
    }
    writeDouble(d);
  }

  private CanonicalizationException outOfRange(int depth, JsonNode node) {
    return new CanonicalizationException(
        Reason.NUMBER_OUT_OF_RANGE,
        treePointer(depth),
        "number "
            + abbreviate(node.numberValue().toString())
            + " is beyond the range of IEEE 754 doubles",
        null);
  }

  private void checkDepth(int depth) {
    if (depth >= MAX_DEPTH) {
      throw new CanonicalizationException(
          Reason.LIMIT_EXCEEDED,
          treePointer(depth),
          "nesting deeper than " + MAX_DEPTH + " levels",
          null);
    }
  }

  private void setPath(int depth, String name, int index) {
    if (depth >= pathNames.length) {
      pathNames = Arrays.copyOf(pathNames, Math.max(depth + 1, pathNames.length * 2));
      pathIndexes = Arrays.copyOf(pathIndexes, pathNames.length);
    }
    pathNames[depth] = name;
    pathIndexes[depth] = index;
  }

  /** The pointer of a tree value at {@code depth}: the first {@code depth} path steps. */
  private String treePointer(int depth) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < depth; i++) {
      String name = pathNames[i];
      if (name == null) {
        sb.append('/').append(pathIndexes[i]);
      } else {
        appendPointerStep(sb, name);
      }
    }
    return sb.toString();
  }

  // ---------------------------------------------------------------- members

  private void pushMember(String name, JsonNode value) {
    if (top == names.length) {
      int n = top * 2;
      names = Arrays.copyOf(names, n);
      keys = Arrays.copyOf(keys, n);
      starts = Arrays.copyOf(starts, n);
      values = Arrays.copyOf(values, n);
      perm = Arrays.copyOf(perm, n);
      permTmp = Arrays.copyOf(permTmp, n);
    }
    names[top] = name;
    keys[top] = prefixKey(name);
    starts[top] = len;
    values[top] = value;
    top++;
    if (top > highWater) {
      highWater = top;
    }
  }

  /**
   * Orders the members [base, base + n) by name into perm[base, base + n).
   *
   * @return {@link #IN_ORDER} if they already were in order, {@link #REORDERED} if not, or the
   *     index of a member whose name another member has too
   */
  private int order(int base, int n) {
    int end = base + n;
    boolean inOrder = true;
    for (int i = base + 1; i < end; i++) {
      if (compare(i - 1, i) >= 0) {
        inOrder = false;
        break;
      }
    }
    for (int i = base; i < end; i++) {
      perm[i] = i;
    }
    if (inOrder) {
      return IN_ORDER;
    }
    sort(base, end);
    for (int i = base + 1; i < end; i++) {
      if (compare(perm[i - 1], perm[i]) == 0) {
        return perm[i];
      }
    }
    return REORDERED;
  }

  /** Sorts perm[lo, hi) by name: insertion sort for few members, merge sort for many. */
  private void sort(int lo, int hi) {
    if (hi - lo <= 16) {
      for (int i = lo + 1; i < hi; i++) {
        int m = perm[i];
        int j = i - 1;
        while (j >= lo && compare(perm[j], m) > 0) {
          perm[j + 1] = perm[j];
          j--;
        }
        perm[j + 1] = m;
      }
      return;
    }
    int mid = (lo + hi) >>> 1;
    sort(lo, mid);
    sort(mid, hi);
    if (compare(perm[mid - 1], perm[mid]) <= 0) {
      return;
    }
    System.arraycopy(perm, lo, permTmp, lo, hi - lo);
    int i = lo;
    int j = mid;
    int k = lo;
    while (i < mid && j < hi) {
      perm[k++] = compare(permTmp[j], permTmp[i]) < 0 ? permTmp[j++] : permTmp[i++];
    }
    while (i < mid) {
      perm[k++] = permTmp[i++];
    }
    while (j < hi) {
      perm[k++] = permTmp[j++];
    }
  }

  /** Compares the names of members a and b by UTF-16 code units, as String.compareTo does. */
  private int compare(int a, int b) {
    int c = Long.compareUnsigned(keys[a], keys[b]);
    return c != 0 ? c : names[a].compareTo(names[b]);
  }

  /**
   * The first four UTF-16 code units of a name, packed, 0 past its end. Where two keys differ, they
   * order their names as String.compareTo does; where they are equal, compareTo decides.
   */
  private static long prefixKey(String name) {
    int n = name.length();
    long key = 0;
    for (int i = 0; i < 4; i++) {
      key = key << 16 | (i < n ? name.charAt(i) : 0);
    }
    return key;
  }

  // ---------------------------------------------------------------- scalars

  private void writeLong(long v) {
    ensure(EcmaNumber.MAX_LENGTH);
    if (-MAX_SAFE_INTEGER <= v && v <= MAX_SAFE_INTEGER) {
      len = EcmaNumber.writeSafeInteger(v, buf, len);
    } else {
      len = EcmaNumber.write((double) v, buf, len); // rounds to the nearest double, as JSON does
    }
  }

  private void writeDouble(double d) {
    ensure(EcmaNumber.MAX_LENGTH);
    len = EcmaNumber.write(d, buf, len);
  }

  /**
   * Writes a member name as a JSON string, from the cache if it was written before.
   *
   * @return false, having written part of it, if it holds a lone surrogate
   */
  private boolean writeName(String name) {
    int h = name.hashCode();
    int slot = (h ^ h >>> 16) & (NAME_CACHE - 1);
    String cached = cachedNames[slot];
    if (cached != null && (cached == name || cached.equals(name))) {
      byte[] bytes = cachedNameBytes[slot];
      ensure(bytes.length);
      System.arraycopy(bytes, 0, buf, len, bytes.length);
      len += bytes.length;
      return true;
    }
    int start = len;
    if (!writeString(name)) {
      return false;
    }
    if (name.length() <= NAME_CACHE_MAX_LENGTH) {
      cachedNames[slot] = name;
      cachedNameBytes[slot] = Arrays.copyOfRange(buf, start, len);
    }
    return true;
  }

  /**
   * Writes a JSON string.
   *
   * @return false, having written part of it, if it holds a lone surrogate
   */
  private boolean writeString(String s) {
    int n = s.length();
    if (chars.length < n) {
      chars = new char[Math.max(n, chars.length * 2)];
    }
    s.getChars(0, n, chars, 0);
    return writeChars(chars, 0, n);
  }

  /**
   * Writes {@code cs[off, off + n)} as a JSON string in UTF-8, escaped as RFC 8785 (and ECMAScript
   * JSON.stringify) do: the two-letter escapes for quote, backslash, b, f, n, r, t; other controls
   * below U+0020 as lowercase backslash-u00xx; all else as is.
   *
   * @return false, having written part of it, if it holds a lone surrogate
   */
  private boolean writeChars(char[] cs, int off, int n) {
    ensure(n + 2); // room for each char as one byte, as plain ASCII takes
    byte[] b = buf;
    int j = len;
    b[j++] = '"';
    int i = off;
    int end = off + n;
    while (true) {
      // A run of plain ASCII, copied as it is.
      while (i < end) {
        char c = cs[i];
        if (c >= 0x80 || ESCAPE[c] != 0) {
          break;
        }
        b[j++] = (byte) c;
        i++;
      }
      if (i == end) {
        break;
      }
      // Then one char to escape or to encode in several bytes: room for it (at most 6 bytes) and
      // for the rest as plain ASCII, which is all that the loop above counts on.
      if (b.length - j < 6 + (end - i)) {
        len = j;
        grow(6 + (end - i));
        b = buf;
      }
      char c = cs[i++];
      if (c < 0x80) {
        byte e = ESCAPE[c];
        b[j++] = '\\';
        if (e > 0) {
          b[j++] = e;
        } else {
          b[j++] = 'u';
          b[j++] = '0';
          b[j++] = '0';
          b[j++] = HEX[c >> 4];
          b[j++] = HEX[c & 0xf];
        }
      } else if (c < 0x800) {
        b[j++] = (byte) (0xc0 | c >> 6);
        b[j++] = (byte) (0x80 | c & 0x3f);
      } else if (c < Character.MIN_SURROGATE || c > Character.MAX_SURROGATE) {
        b[j++] = (byte) (0xe0 | c >> 12);
        b[j++] = (byte) (0x80 | c >> 6 & 0x3f);
        b[j++] = (byte) (0x80 | c & 0x3f);
      } else if (c <= Character.MAX_HIGH_SURROGATE && i < end && Character.isLowSurrogate(cs[i])) {
        int cp = Character.toCodePoint(c, cs[i++]);
        b[j++] = (byte) (0xf0 | cp >> 18);
        b[j++] = (byte) (0x80 | cp >> 12 & 0x3f);
        b[j++] = (byte) (0x80 | cp >> 6 & 0x3f);
        b[j++] = (byte) (0x80 | cp & 0x3f);
      } else {
        len = j;
        return false;
      }
    }
    len = j;
    append('"');
    return true;
  }

  private void append(char c) {
    if (len == buf.length) {
      grow(1);
    }
    buf[len++] = (byte) c;
  }

  private void appendAscii(String s) {
    int n = s.length();
    ensure(n);
    for (int i = 0; i < n; i++) {
      buf[len++] = (byte) s.charAt(i);
    }
  }

  private void ensure(int extra) {
    if (buf.length - len < extra) {
      grow(extra);
    }
  }

  private void grow(int extra) {
    long need = (long) len + extra;
    long size = Math.max(need, buf.length * 2L);
    if (need > Integer.MAX_VALUE - 16) {
      throw new CanonicalizationException(
          Reason.LIMIT_EXCEEDED, "", "canonical form larger than 2 GiB", null);
    }
    buf = Arrays.copyOf(buf, (int) Math.min(size, Integer.MAX_VALUE - 16));
  }

  // ---------------------------------------------------------------- errors

  private static CanonicalizationException loneSurrogate(String pointer, String what) {
    return new CanonicalizationException(
        Reason.LONE_SURROGATE,
        pointer,
        "the " + what + " holds a lone UTF-16 surrogate, which has no UTF-8 form",
        null);
  }

  private static CanonicalizationException duplicate(String objectPointer, String name) {
    StringBuilder sb = new StringBuilder(objectPointer);
    appendPointerStep(sb, name);
    return new CanonicalizationException(
        Reason.DUPLICATE_NAME, sb.toString(), "duplicate object member name", null);
  }

  /** Appends "/" and the name with '~' as "~0" and '/' as "~1" (RFC 6901). */
  private static void appendPointerStep(StringBuilder sb, String name) {
    sb.append('/');
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '~') {
        sb.append("~0");
      } else if (c == '/') {
        sb.append("~1");
      } else {
        sb.append(c);
      }
    }
  }

  private static String abbreviate(String text) {
    return text.length() <= 40 ? text : text.substring(0, 37) + "...";
  }
}
