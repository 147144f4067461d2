package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.ExecutionContext;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaContext;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.keyword.AbstractKeyword;
import com.networknt.schema.keyword.AbstractKeywordValidator;
import com.networknt.schema.keyword.KeywordValidator;
import com.networknt.schema.path.NodePath;
import java.util.ArrayList;
import java.util.List;

/**
 * The spec's {@code x-jarvis-forbidden-fields}: host-private names that must never appear at the
 * level of the object whose schema lists them. Enforced on its own terms, whether or not the schema
 * also closes the object with {@code additionalProperties: false}.
 */
final class ForbiddenFieldsKeyword extends AbstractKeyword {

  static final String NAME = "x-jarvis-forbidden-fields";

  ForbiddenFieldsKeyword() {
    super(NAME);
  }

  @Override
  public KeywordValidator newValidator(
      SchemaLocation location, JsonNode schemaNode, Schema parentSchema, SchemaContext context) {
    List<String> names = new ArrayList<>();
    schemaNode.forEach(name -> names.add(name.asText()));
    return new Validator(location, schemaNode, List.copyOf(names));
  }

  private final class Validator extends AbstractKeywordValidator {
    private final List<String> names;

    Validator(SchemaLocation location, JsonNode schemaNode, List<String> names) {
      super(ForbiddenFieldsKeyword.this, schemaNode, location);
      this.names = names;
    }

    @Override
    public void validate(
        ExecutionContext context, JsonNode node, JsonNode rootNode, NodePath instanceLocation) {
      if (!node.isObject()) {
        return;
      }
      for (String name : names) {
        if (node.has(name)) {
          context.addError(
              Error.builder()
                  .keyword(NAME)
                  .property(name)
                  .arguments(name)
                  .instanceLocation(instanceLocation)
                  .evaluationPath(context.getEvaluationPath())
                  .schemaLocation(getSchemaLocation())
                  .schemaNode(schemaNode)
                  .instanceNode(node)
                  .message("property '" + name + "' is a host-private field the spec forbids here")
                  .build());
        }
      }
    }
  }
}
