package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The parts of the OpenAPI document the validator reads: its component schemas, by name. */
public final class SpecTree {

  static final String SCHEMA_REF_PREFIX = "#/components/schemas/";

  private final JsonNode document;
  private final JsonNode schemas;

  public SpecTree(JsonNode document) {
    this.document = Objects.requireNonNull(document, "document");
    this.schemas = document.path("components").path("schemas");
    if (!schemas.isObject() || schemas.isEmpty()) {
      throw new IllegalArgumentException("the OpenAPI document has no components.schemas");
    }
  }

  /** The whole OpenAPI document. */
  public JsonNode document() {
    return document;
  }

  /** The top-level member names of the OpenAPI document ({@code openapi}, {@code paths}…). */
  public List<String> documentMembers() {
    List<String> names = new ArrayList<>();
    for (Map.Entry<String, JsonNode> member : document.properties()) {
      names.add(member.getKey());
    }
    return Collections.unmodifiableList(names);
  }

  /** The names of {@code components.schemas}, in document order. */
  public List<String> schemaNames() {
    List<String> names = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : schemas.properties()) {
      names.add(e.getKey());
    }
    return Collections.unmodifiableList(names);
  }

  public boolean hasSchema(String name) {
    return schemas.has(name);
  }

  /** The component schema of that name; a missing node if there is none. */
  public JsonNode schema(String name) {
    return schemas.path(name);
  }

  /**
   * The component name a {@code $ref} such as {@code #/components/schemas/JarvisId} points to.
   *
   * @throws IllegalStateException for any other kind of reference: the spec uses none
   */
  static String componentOf(String ref) {
    if (!ref.startsWith(SCHEMA_REF_PREFIX) || ref.indexOf('/', SCHEMA_REF_PREFIX.length()) >= 0) {
      throw new IllegalStateException("unsupported $ref " + ref);
    }
    return ref.substring(SCHEMA_REF_PREFIX.length());
  }
}
