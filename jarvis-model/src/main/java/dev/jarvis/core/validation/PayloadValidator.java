package dev.jarvis.core.validation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.validation.internal.CompiledSpec;
import dev.jarvis.core.validation.internal.ParsedPayload;
import dev.jarvis.core.validation.internal.StrictJsonReader;
import java.util.List;
import java.util.Objects;

/**
 * Checks a raw JSON payload against the Jarvis spec and returns every broken rule as a {@link
 * ProtocolViolation}; an empty list means the payload is a valid record.
 *
 * <p>Everything enforced is read from the spec ({@link JarvisSpec}): the full JSON Schema 2020-12
 * of each component schema (types, {@code required}, closed objects, enums, {@code const},
 * patterns, lengths, ranges, {@code uniqueItems}, strict RFC 3339 {@code date-time}, every {@code
 * if/then} rule, {@code propertyNames} of extensions, preferences and portable values) and the
 * spec's {@code x-jarvis-forbidden-fields} and {@code x-jarvis-unique-by}. Which {@code error_id}
 * each broken rule is reported as is documented in {@code docs/error-mapping.md}.
 *
 * <p>Bad input never throws: malformed JSON, duplicate object keys, content after the document and
 * text that canonical JSON cannot carry (a lone UTF-16 surrogate in any string or member name, a
 * number beyond the double range) come back as violations; the last is the canonicalizer's own
 * refusal ({@link dev.jarvis.core.canonical.CanonicalizationException#toViolation}), so a payload
 * this validator accepts never fails to hash. Violations are ordered by JSON Pointer, then {@code
 * error_id}, with no two alike. A programming error does throw: naming a schema or operation the
 * spec lacks.
 *
 * <p>Instances are immutable and thread-safe; {@link #forSpec()} builds the shared one once.
 */
public final class PayloadValidator {

  private final CompiledSpec spec;

  private PayloadValidator(CompiledSpec spec) {
    this.spec = spec;
  }

  /**
   * The validator for the spec shipped in this jar, built on first use from the checks the build
   * compiled from the spec.
   */
  public static PayloadValidator forSpec() {
    return Shared.INSTANCE;
  }

  /**
   * A validator for another OpenAPI document of the same shape (tools and tests), compiled from it
   * now: each component schema on its first payload.
   */
  public static PayloadValidator forSpec(JsonNode openApiDocument) {
    return new PayloadValidator(CompiledSpec.compile(openApiDocument));
  }

  /** The component schema names a payload can be validated against, in spec order. */
  public List<String> schemaNames() {
    return spec.schemaNames();
  }

  /**
   * Validates UTF-8 (or UTF-16/32, detected) JSON against component schema {@code schemaName} (such
   * as {@code PolicyDecision}).
   */
  public List<ProtocolViolation> validate(String schemaName, byte[] json) {
    requireSchema(schemaName);
    return check(schemaName, StrictJsonReader.read(Objects.requireNonNull(json, "json")));
  }

  /** Validates JSON text against component schema {@code schemaName}. */
  public List<ProtocolViolation> validate(String schemaName, String json) {
    requireSchema(schemaName);
    return check(schemaName, StrictJsonReader.read(Objects.requireNonNull(json, "json")));
  }

  /**
   * Validates an already parsed tree. A tree cannot show duplicate keys any more: validate the raw
   * bytes or text where you have them.
   */
  public List<ProtocolViolation> validate(String schemaName, JsonNode json) {
    requireSchema(schemaName);
    return check(schemaName, StrictJsonReader.accept(Objects.requireNonNull(json, "json")));
  }

  /**
   * Validates the request body of operation {@code operationId} (such as {@code recordReview}),
   * against the schema the spec's {@code paths} give it.
   */
  public List<ProtocolViolation> validateRequestBody(String operationId, byte[] json) {
    return validate(requestBodySchema(operationId), json);
  }

  /** As {@link #validateRequestBody(String, byte[])}, from JSON text. */
  public List<ProtocolViolation> validateRequestBody(String operationId, String json) {
    return validate(requestBodySchema(operationId), json);
  }

  /** As {@link #validateRequestBody(String, byte[])}, from a parsed tree. */
  public List<ProtocolViolation> validateRequestBody(String operationId, JsonNode json) {
    return validate(requestBodySchema(operationId), json);
  }

  /**
   * The component schema of the operation's JSON request body.
   *
   * @throws IllegalArgumentException if the spec has no such operation, or it takes no body
   */
  public String requestBodySchema(String operationId) {
    if (!spec.hasOperation(operationId)) {
      throw new IllegalArgumentException("the spec has no operation " + operationId);
    }
    return spec.requestBodySchema(operationId)
        .orElseThrow(
            () -> new IllegalArgumentException(operationId + " takes no JSON request body"));
  }

  private List<ProtocolViolation> check(String schemaName, ParsedPayload payload) {
    if (!payload.isReadable()) {
      return List.of(spec.unreadable(schemaName, payload));
    }
    return spec.check(schemaName, payload.node());
  }

  private void requireSchema(String schemaName) {
    if (!spec.hasSchema(Objects.requireNonNull(schemaName, "schemaName"))) {
      throw new IllegalArgumentException("the spec has no component schema " + schemaName);
    }
  }

  /** Holder idiom: built once, on first use, by the class loader's lock. */
  private static final class Shared {
    static final PayloadValidator INSTANCE = new PayloadValidator(CompiledSpec.shipped());
  }
}
