package dev.jarvis.client.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.ContextualDeserializer;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import dev.jarvis.core.JarvisJson;
import java.io.IOException;
import java.time.DateTimeException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * The mapping an answer's record is bound with: the wire mapping ({@link JarvisJson#newMapper()},
 * every strict setting unchanged) with one faster path. Reading an {@code OffsetDateTime} through
 * {@code java.time}'s {@code ISO_OFFSET_DATE_TIME} was more than half the cost of binding a
 * PolicyDecision (a JFR profile, docs/benchmarks.md run 5); the common shape {@code
 * yyyy-mm-ddThh:mm:ss[.fraction](Z|±hh:mm)} is read here digit by digit instead. Anything else —
 * another shape, a value {@code java.time} refuses, a token that is not text — goes to the module's
 * own deserializer, so what binds and what fails (and with which message) is what the wire mapping
 * does.
 */
final class AnswerMapping {

  private static final ObjectMapper MAPPER = newMapper();

  private AnswerMapping() {}

  /** The shared mapper answers are bound with; do not reconfigure it. */
  static ObjectMapper mapper() {
    return MAPPER;
  }

  private static ObjectMapper newMapper() {
    ObjectMapper mapper = JarvisJson.newMapper();
    SimpleModule fastTimes = new SimpleModule("jarvis-client-answer-times");
    fastTimes.setDeserializerModifier(
        new BeanDeserializerModifier() {
          @Override
          public JsonDeserializer<?> modifyDeserializer(
              DeserializationConfig config,
              BeanDescription description,
              JsonDeserializer<?> found) {
            return description.getBeanClass() == OffsetDateTime.class
                ? new FastOffsetDateTime(found)
                : found;
          }
        });
    return mapper.registerModule(fastTimes);
  }

  /**
   * The text as an {@code OffsetDateTime}, if it has exactly the common shape and {@code java.time}
   * holds it (a real date, hour 0–23, offset within ±18:00); otherwise null, for the module's own
   * deserializer to read or refuse. Equal to what {@code OffsetDateTime.parse} gives for the same
   * text (a test holds it to that).
   */
  static OffsetDateTime read(String text) {
    int n = text.length();
    // yyyy-mm-ddThh:mm:ss is 19 characters, then at least Z.
    if (n < 20
        || text.charAt(4) != '-'
        || text.charAt(7) != '-'
        || text.charAt(10) != 'T'
        || text.charAt(13) != ':'
        || text.charAt(16) != ':') {
      return null;
    }
    int year = digits(text, 0, 4);
    int month = digits(text, 5, 2);
    int day = digits(text, 8, 2);
    int hour = digits(text, 11, 2);
    int minute = digits(text, 14, 2);
    int second = digits(text, 17, 2);
    if ((year | month | day | hour | minute | second) < 0) {
      return null;
    }
    int i = 19;
    int nanos = 0;
    if (text.charAt(i) == '.') {
      int start = ++i;
      while (i < n && i - start < 9 && isDigit(text.charAt(i))) {
        nanos = nanos * 10 + (text.charAt(i) - '0');
        i++;
      }
      int count = i - start;
      if (count == 0 || i < n && isDigit(text.charAt(i))) {
        return null;
      }
      for (int k = count; k < 9; k++) {
        nanos *= 10;
      }
    }
    ZoneOffset offset;
    if (i == n - 1 && text.charAt(i) == 'Z') {
      offset = ZoneOffset.UTC;
    } else if (i == n - 6
        && (text.charAt(i) == '+' || text.charAt(i) == '-')
        && text.charAt(i + 3) == ':') {
      int hours = digits(text, i + 1, 2);
      int minutes = digits(text, i + 4, 2);
      if ((hours | minutes) < 0) {
        return null;
      }
      try {
        offset =
            text.charAt(i) == '+'
                ? ZoneOffset.ofHoursMinutes(hours, minutes)
                : ZoneOffset.ofHoursMinutes(-hours, -minutes);
      } catch (DateTimeException outOfRange) {
        return null;
      }
    } else {
      return null;
    }
    try {
      return OffsetDateTime.of(year, month, day, hour, minute, second, nanos, offset);
    } catch (DateTimeException notAnInstant) {
      return null;
    }
  }

  /** The non-negative number of {@code count} ASCII digits at {@code from}, or -1. */
  private static int digits(String text, int from, int count) {
    int value = 0;
    for (int i = from; i < from + count; i++) {
      char c = text.charAt(i);
      if (!isDigit(c)) {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** The fast path in front of the module's deserializer, which reads everything else. */
  private static final class FastOffsetDateTime extends StdDeserializer<OffsetDateTime>
      implements ContextualDeserializer {
    private static final long serialVersionUID = 1L;

    private final transient JsonDeserializer<?> module;

    FastOffsetDateTime(JsonDeserializer<?> module) {
      super(OffsetDateTime.class);
      this.module = module;
    }

    @Override
    public OffsetDateTime deserialize(JsonParser parser, DeserializationContext context)
        throws IOException {
      // Only where the mapping keeps the offset read (the wire mapping does): else the module's.
      if (parser.hasToken(JsonToken.VALUE_STRING)
          && !context.isEnabled(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)) {
        OffsetDateTime read = read(parser.getText());
        if (read != null) {
          return read;
        }
      }
      return (OffsetDateTime) module.deserialize(parser, context);
    }

    @Override
    public JsonDeserializer<?> createContextual(
        DeserializationContext context, BeanProperty property) throws JsonMappingException {
      if (module instanceof ContextualDeserializer contextual) {
        JsonDeserializer<?> specific = contextual.createContextual(context, property);
        // A property with a format of its own (none in the generated model) is the module's alone.
        return specific == module ? this : specific;
      }
      return this;
    }
  }
}
