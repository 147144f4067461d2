package dev.jarvis.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * The one wire mapping of Jarvis protocol records, shared by client and host.
 *
 * <p>The spec closes every object ({@code additionalProperties: false}) and treats field names and
 * enum values as wire format, so this mapping refuses what a lenient mapper would quietly accept:
 * unknown properties, unknown enum values, duplicate object keys, trailing tokens after the
 * document, and scalar coercions such as {@code "1"} for {@code 1}. On write, absent fields stay
 * absent and timestamps are RFC 3339 text with the offset they were read with.
 *
 * <p>Binding into the generated model is not a full protocol check (the generator drops the spec's
 * {@code if/then} rules, boolean {@code const} and {@code propertyNames}); those are enforced on
 * the raw JSON by the protocol core.
 */
public final class JarvisJson {

  private static final ObjectMapper SHARED = newMapper();

  private JarvisJson() {}

  /**
   * The shared, thread-safe mapper. Do not reconfigure it; call {@link #newMapper()} for a copy to
   * change.
   */
  public static ObjectMapper mapper() {
    return SHARED;
  }

  /** A fresh mapper with the strict Jarvis wire configuration. */
  public static ObjectMapper newMapper() {
    return newMapper(new JsonFactory());
  }

  /**
   * A fresh mapper with the strict Jarvis wire configuration over {@code factory} (for stream read
   * constraints of its own, or a factory that counts what it parses).
   */
  public static ObjectMapper newMapper(JsonFactory factory) {
    JsonMapper mapper =
        JsonMapper.builder(factory)
            .addModule(new JavaTimeModule())
            .annotationIntrospector(new AbsentStaysAbsent())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
            .disable(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_AS_NULL)
            .disable(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_USING_DEFAULT_VALUE)
            // Keep the offset a timestamp was sent with: +02:00 must not come back as Z.
            .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .defaultPropertyInclusion(
                JsonInclude.Value.construct(
                    JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
            .build();
    // Text is text and numbers are numbers: no "1" -> 1, no 1 -> "1", no 1.5 -> 1, no "" -> null.
    refuse(mapper, LogicalType.Integer, CoercionInputShape.String, CoercionInputShape.Float);
    refuse(mapper, LogicalType.Float, CoercionInputShape.String);
    refuse(mapper, LogicalType.Boolean, CoercionInputShape.String, CoercionInputShape.Integer);
    refuse(
        mapper,
        LogicalType.Textual,
        CoercionInputShape.Integer,
        CoercionInputShape.Float,
        CoercionInputShape.Boolean);
    refuse(mapper, LogicalType.Enum, CoercionInputShape.Integer);
    return mapper;
  }

  /**
   * The generator marks required properties {@code @JsonInclude(ALWAYS)}, which would write a
   * missing required field as {@code null}: a different document, and a different hash. On the wire
   * a field is either present with a value or absent.
   */
  private static final class AbsentStaysAbsent extends JacksonAnnotationIntrospector {
    private static final long serialVersionUID = 1L;

    @Override
    public JsonInclude.Value findPropertyInclusion(Annotated a) {
      JsonInclude.Value declared = super.findPropertyInclusion(a);
      return declared.getValueInclusion() == JsonInclude.Include.ALWAYS
          ? declared.withValueInclusion(JsonInclude.Include.NON_NULL)
          : declared;
    }
  }

  private static void refuse(ObjectMapper mapper, LogicalType target, CoercionInputShape... from) {
    for (CoercionInputShape shape : from) {
      mapper.coercionConfigFor(target).setCoercion(shape, CoercionAction.Fail);
    }
    if (target != LogicalType.Textual) {
      mapper
          .coercionConfigFor(target)
          .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
    }
  }
}
