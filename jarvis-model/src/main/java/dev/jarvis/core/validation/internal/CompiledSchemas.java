package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.path.PathType;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Every component schema of the spec compiled once by the JSON Schema validator, with format
 * assertions on and patterns that cannot overflow the stack ({@link StackSafeRegularExpressions}).
 * The OpenAPI document is registered under a URN, so {@code $ref}s resolve inside it and nothing is
 * ever fetched. Compiled schemas are immutable and thread-safe.
 */
final class CompiledSchemas {

  private static final String DOCUMENT_IRI = "urn:dev.jarvis:openapi";

  private final Map<String, Schema> byName;

  CompiledSchemas(SpecTree spec) {
    String document;
    try {
      document = new ObjectMapper().writeValueAsString(spec.document());
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
    SchemaRegistryConfig config =
        SchemaRegistryConfig.builder()
            .formatAssertionsEnabled(true)
            .pathType(PathType.JSON_POINTER)
            .regularExpressionFactory(new StackSafeRegularExpressions())
            .build();
    SchemaRegistry registry =
        SchemaRegistry.withDefaultDialect(
            JarvisDialect.forSpec(spec),
            builder ->
                builder
                    .schemas(Map.of(DOCUMENT_IRI, document))
                    .schemaLoader(loader -> loader.fetchRemoteResources(false))
                    .schemaRegistryConfig(config));
    Map<String, Schema> compiled = new LinkedHashMap<>();
    for (String name : spec.schemaNames()) {
      Schema schema =
          registry.getSchema(SchemaLocation.of(DOCUMENT_IRI + SpecTree.SCHEMA_REF_PREFIX + name));
      schema.initializeValidators();
      compiled.put(name, schema);
    }
    this.byName = Map.copyOf(compiled);
  }

  Optional<Schema> get(String name) {
    return Optional.ofNullable(byName.get(name));
  }
}
