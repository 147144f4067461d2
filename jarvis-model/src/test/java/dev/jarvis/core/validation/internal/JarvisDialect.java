package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.keyword.AnnotationKeyword;
import com.networknt.schema.keyword.Keyword;
import com.networknt.schema.keyword.NonValidationKeyword;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * JSON Schema 2020-12 (the spec's {@code jsonSchemaDialect}) as the validator must read the Jarvis
 * spec: strict RFC 3339 {@code date-time}, and the spec's {@code x-jarvis-*} schema keywords.
 *
 * <p>{@code x-jarvis-forbidden-fields} and {@code x-jarvis-unique-by} are enforced. Every other
 * {@code x-} keyword found in the component schemas is registered as an annotation, so that the
 * validator neither warns about it nor guesses at it: {@code x-jarvis-duplicate-rejection-id} is
 * read by {@code x-jarvis-unique-by}, and {@code x-jarvis-invariants} name rules about state across
 * records, which a single payload cannot show.
 */
final class JarvisDialect {

  private JarvisDialect() {}

  static Dialect forSpec(SpecTree spec) {
    Dialect base = Dialects.getDraft202012();
    Dialect.Builder builder = Dialect.builder(base).format(new Rfc3339DateTimeFormat());
    for (String keyword : extensionKeywords(spec)) {
      builder.keyword(keywordFor(keyword));
    }
    // The validator loads the whole OpenAPI document as the resource the schemas live in, and
    // would take its top-level members (openapi, info, paths, components…) for unknown keywords.
    for (String member : spec.documentMembers()) {
      if (!base.getKeywords().containsKey(member)) {
        builder.keyword(new NonValidationKeyword(member));
      }
    }
    return builder.build();
  }

  private static Keyword keywordFor(String name) {
    return switch (name) {
      case ForbiddenFieldsKeyword.NAME -> new ForbiddenFieldsKeyword();
      case UniqueByKeyword.NAME -> new UniqueByKeyword();
      default -> new AnnotationKeyword(name);
    };
  }

  /** Every {@code x-} key used inside {@code components.schemas}, sorted. */
  static Set<String> extensionKeywords(SpecTree spec) {
    Set<String> found = new TreeSet<>();
    for (String name : spec.schemaNames()) {
      collect(spec.schema(name), found);
    }
    return found;
  }

  private static void collect(JsonNode node, Set<String> found) {
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        if (e.getKey().startsWith("x-")) {
          found.add(e.getKey());
        } else {
          collect(e.getValue(), found);
        }
      }
    } else if (node.isArray()) {
      node.forEach(item -> collect(item, found));
    }
  }
}
