package dev.jarvis.codegen;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import java.util.Map;
import java.util.Set;
import org.openapitools.codegen.OpenAPINormalizer;

/**
 * The generator's normalizer, except that a string {@code const} stays a plain string.
 *
 * <p>openapi-generator 7.25 turns every {@code const} of a 3.1 spec into a one-value {@code enum}
 * (rule {@code NORMALIZE_31SPEC}, forced on for 3.1), so the same protocol type came out as a
 * nested enum in one record ({@code WorkSession.protocol_version}) and as {@code String} in another
 * ({@code Request.protocol_version}, whose schema the rule does not reach). A const is a validation
 * rule, not a type: the request guard enforces it on the raw JSON, and every {@code
 * protocol_version} is a {@code String}. Selected by the {@code NORMALIZER_CLASS} rule.
 */
public class StringConstNormalizer extends OpenAPINormalizer {

  /**
   * The generator's constructor signature, which it calls reflectively.
   *
   * @param openApi the parsed spec
   * @param inputRules the configured normalizer rules
   */
  public StringConstNormalizer(OpenAPI openApi, Map<String, String> inputRules) {
    super(openApi, inputRules);
  }

  @Override
  @SuppressWarnings({"rawtypes", "unchecked"}) // the generator's signature is raw
  protected Schema processNormalize31Spec(Schema schema, Set<Schema> visitedSchemas) {
    Object constant = schema == null ? null : schema.getConst();
    Schema normalized = super.processNormalize31Spec(schema, visitedSchemas);
    if (constant instanceof String && normalized != null) {
      normalized.setEnum(null);
      normalized.setConst(constant);
    }
    return normalized;
  }
}
