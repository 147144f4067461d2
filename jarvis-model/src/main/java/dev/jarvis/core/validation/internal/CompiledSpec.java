package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.error.ProtocolViolation;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Everything payload validation needs from one OpenAPI document, prepared once: the component
 * schemas compiled into checks, the request body schema of each operation, and the mapping of
 * broken keywords to violations. Immutable and thread-safe.
 *
 * <p>Two origins, one graph: the spec shipped in this jar was compiled by the build ({@link
 * #shipped}, {@link PrecompiledSpec}); any other document is compiled here ({@link #compile},
 * {@link SchemaCompiler}, each schema on its first use).
 */
public final class CompiledSpec {

  private final List<String> schemaNames;
  private final Set<String> schemas;
  private final RequestBodies requestBodies;
  private final Function<String, Optional<Check>> compiler;
  private final Map<String, Check> checks = new ConcurrentHashMap<>();
  private final Supplier<SpecTree> document;
  private volatile ViolationMapper mapper;

  private CompiledSpec(
      List<String> schemaNames,
      RequestBodies requestBodies,
      Function<String, Optional<Check>> compiler,
      Supplier<SpecTree> document) {
    this.schemaNames = List.copyOf(schemaNames);
    this.schemas = Set.copyOf(schemaNames);
    this.requestBodies = requestBodies;
    this.compiler = compiler;
    this.document = document;
  }

  /** Compiles an OpenAPI 3.1 document given as a JSON tree. */
  public static CompiledSpec compile(JsonNode openApiDocument) {
    SpecTree spec = new SpecTree(openApiDocument);
    SchemaCompiler compiler = new SchemaCompiler(spec);
    CompiledSpec compiled =
        new CompiledSpec(
            spec.schemaNames(), RequestBodies.fromSpec(spec), compiler::compile, () -> spec);
    compiled.mapper = new ViolationMapper(spec);
    return compiled;
  }

  /**
   * The spec shipped in this jar, as the build compiled it: no spec is read until a payload breaks
   * a rule, when the violation mapping reads the spec's tree ({@link JarvisSpec#tree}) once.
   */
  public static CompiledSpec shipped() {
    PrecompiledSpec precompiled = PrecompiledSpec.load();
    Map<String, KeywordChecks.Ref> components = precompiled.components();
    return new CompiledSpec(
        precompiled.schemaNames(),
        precompiled.requestBodies(),
        name -> Optional.ofNullable(components.get(name)).map(ref -> (Check) ref::checkTarget),
        () -> new SpecTree(JarvisSpec.tree()));
  }

  /** The names of the spec's component schemas, in document order. */
  public List<String> schemaNames() {
    return schemaNames;
  }

  public boolean hasSchema(String schemaName) {
    return schemas.contains(schemaName);
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
    return ViolationOrder.sortedDistinct(mapper().map(schemaName, payload, run.errors()));
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
            .apply(schemaName)
            .orElseThrow(() -> new IllegalArgumentException("no component schema " + schemaName));
    checks.putIfAbsent(schemaName, check);
    return check;
  }

  /** The mapping reads the spec's tree: built on the first broken payload, once. */
  private ViolationMapper mapper() {
    ViolationMapper built = mapper;
    if (built == null) {
      synchronized (this) {
        built = mapper;
        if (built == null) {
          built = new ViolationMapper(document.get());
          mapper = built;
        }
      }
    }
    return built;
  }
}
