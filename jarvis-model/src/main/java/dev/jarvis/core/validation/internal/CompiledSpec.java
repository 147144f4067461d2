package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.error.ProtocolViolation;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Everything payload validation needs from one OpenAPI document, prepared once: the component
 * schemas compiled into checks ({@link SchemaCompiler}, each on its first use), the request body
 * schema of each operation, and the mapping of broken keywords to violations. Immutable and
 * thread-safe.
 */
public final class CompiledSpec {

  private final SpecTree spec;
  private final SchemaCompiler compiler;
  private final Map<String, Check> checks = new ConcurrentHashMap<>();
  private final RequestBodies requestBodies;
  private final ViolationMapper mapper;

  private CompiledSpec(SpecTree spec) {
    this.spec = spec;
    this.compiler = new SchemaCompiler(spec);
    this.requestBodies = RequestBodies.fromSpec(spec);
    this.mapper = new ViolationMapper(spec);
  }

  /** Compiles an OpenAPI 3.1 document given as a JSON tree. */
  public static CompiledSpec compile(JsonNode openApiDocument) {
    return new CompiledSpec(new SpecTree(openApiDocument));
  }

  /** The names of the spec's component schemas, in document order. */
  public List<String> schemaNames() {
    return spec.schemaNames();
  }

  public boolean hasSchema(String schemaName) {
    return spec.hasSchema(schemaName);
  }

  public boolean hasOperation(String operationId) {
    return requestBodies.hasOperation(operationId);
  }

  /** The component schema of the operation's JSON request body; empty if it takes none. */
  public Optional<String> requestBodySchema(String operationId) {
    return requestBodies.schemaOf(operationId);
  }

  /** Every violation of the payload against the named component schema, ordered, distinct. */
  public List<ProtocolViolation> check(String schemaName, JsonNode payload) {
    Evaluation run = new Evaluation();
    if (checkOf(schemaName).check(payload, run) || run.errors().isEmpty()) {
      return List.of();
    }
    return ViolationOrder.sortedDistinct(mapper.map(schemaName, payload, run.errors()));
  }

  /** The violation for a payload that could not be read as JSON. */
  public ProtocolViolation unreadable(String schemaName, ParsedPayload payload) {
    return payload.violation(ViolationMapper.objectType(schemaName));
  }

  private Check checkOf(String schemaName) {
    Check check = checks.get(schemaName);
    if (check != null) {
      return check;
    }
    check =
        compiler
            .compile(schemaName)
            .orElseThrow(() -> new IllegalArgumentException("no component schema " + schemaName));
    checks.putIfAbsent(schemaName, check);
    return check;
  }
}
