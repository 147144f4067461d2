package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.path.PathType;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every component schema of the spec compiled once by the JSON Schema validator, each on its first
 * use (a client checks a handful of the spec's schemas; compiling them all up front cost a cold
 * process over a second), with format assertions on and patterns that cannot overflow the stack
 * ({@link StackSafeRegularExpressions}). The OpenAPI document is registered under a URN, so {@code
 * $ref}s resolve inside it and nothing is ever fetched. Compiled schemas are immutable and
 * thread-safe.
 */
final class CompiledSchemas {

  private static final String DOCUMENT_IRI = "urn:dev.jarvis:openapi";

  private final Set<String> names;
  private final SchemaRegistry registry;

  /** Compiled so far; written only under this object's lock, read without it. */
  private final Map<String, Schema> byName = new ConcurrentHashMap<>();

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
    this.names = Set.copyOf(spec.schemaNames());
    this.registry =
        SchemaRegistry.withDefaultDialect(
            JarvisDialect.forSpec(spec),
            builder ->
                builder
                    .schemas(Map.of(DOCUMENT_IRI, document))
                    .schemaLoader(loader -> loader.fetchRemoteResources(false))
                    .schemaRegistryConfig(config));
  }

  Optional<Schema> get(String name) {
    if (!names.contains(name)) {
      return Optional.empty();
    }
    Schema compiled = byName.get(name);
    return Optional.of(compiled != null ? compiled : compile(name));
  }

  /**
   * One lock for every compilation: schemas share the ones they reference, and the validator's lazy
   * initialisation of a shared schema must not run on two threads at once.
   */
  private synchronized Schema compile(String name) {
    Schema done = byName.get(name);
    if (done != null) {
      return done;
    }
    Schema schema =
        registry.getSchema(SchemaLocation.of(DOCUMENT_IRI + SpecTree.SCHEMA_REF_PREFIX + name));
    schema.initializeValidators();
    byName.put(name, schema);
    return schema;
  }
}
