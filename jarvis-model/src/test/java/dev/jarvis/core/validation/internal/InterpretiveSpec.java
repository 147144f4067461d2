package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.path.NodePath;
import dev.jarvis.core.error.ProtocolViolation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The interpretive validator the compiled checks replaced, kept as the reference they are held to:
 * the spec's component schemas evaluated per payload by the JSON Schema validator (networknt, with
 * the Jarvis keywords and strict date-time), its errors mapped by the same {@link ViolationMapper}.
 */
public final class InterpretiveSpec {

  private final SpecTree spec;
  private final CompiledSchemas schemas;
  private final ViolationMapper mapper;

  private InterpretiveSpec(SpecTree spec) {
    this.spec = spec;
    this.schemas = new CompiledSchemas(spec);
    this.mapper = new ViolationMapper(spec);
  }

  public static InterpretiveSpec of(JsonNode openApiDocument) {
    QuietSlf4j.initialise();
    return new InterpretiveSpec(new SpecTree(openApiDocument));
  }

  public List<String> schemaNames() {
    return spec.schemaNames();
  }

  /** Every violation of a readable payload, ordered and distinct, as the compiled checks answer. */
  public List<ProtocolViolation> check(String schemaName, JsonNode payload) {
    Schema schema =
        schemas
            .get(schemaName)
            .orElseThrow(() -> new IllegalArgumentException("no component schema " + schemaName));
    List<Error> errors = schema.validate(payload);
    if (errors.isEmpty()) {
      return List.of();
    }
    List<SchemaError> converted = new ArrayList<>(errors.size());
    for (Error error : errors) {
      converted.add(converted(error));
    }
    return ViolationOrder.sortedDistinct(mapper.map(schemaName, payload, converted));
  }

  /** Validates text the way {@code PayloadValidator.validate(String, String)} does. */
  public List<ProtocolViolation> validate(String schemaName, String json) {
    return validate(schemaName, StrictJsonReader.read(json));
  }

  /** Validates bytes the way {@code PayloadValidator.validate(String, byte[])} does. */
  public List<ProtocolViolation> validate(String schemaName, byte[] json) {
    return validate(schemaName, StrictJsonReader.read(json));
  }

  /** Validates a tree the way {@code PayloadValidator.validate(String, JsonNode)} does. */
  public List<ProtocolViolation> validate(String schemaName, JsonNode json) {
    return validate(schemaName, StrictJsonReader.accept(json));
  }

  private List<ProtocolViolation> validate(String schemaName, ParsedPayload payload) {
    if (!payload.isReadable()) {
      return List.of(payload.violation(ViolationMapper.objectType(schemaName)));
    }
    return check(schemaName, payload.node());
  }

  static SchemaError converted(Error error) {
    return new SchemaError(
        error.getKeyword(),
        error.getProperty(),
        instancePath(error.getInstanceLocation()),
        evaluationPath(error.getEvaluationPath()),
        error.getArguments() == null ? List.of() : Arrays.asList(error.getArguments()),
        error.getMessage());
  }

  private static List<Object> instancePath(NodePath path) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < path.getNameCount(); i++) {
      out.add(path.getElement(i));
    }
    return out;
  }

  private static List<String> evaluationPath(NodePath path) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < path.getNameCount(); i++) {
      out.add(path.getName(i));
    }
    return out;
  }
}
