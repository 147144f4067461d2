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
import dev.jarvis.model.ProtocolErrorId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The spec's {@code x-jarvis-unique-by}: no two items of the array may share the listed fields. The
 * error id comes from the sibling {@code x-jarvis-duplicate-rejection-id}. It runs on the raw JSON,
 * so duplicates are seen before any {@code Set} of the generated model swallows them.
 *
 * <p>Each repeated item is reported at its own index, with the index of the item it repeats. Items
 * that are not objects or lack one of the fields are left to the schema's own keywords.
 */
final class UniqueByKeyword extends AbstractKeyword {

  static final String NAME = "x-jarvis-unique-by";
  static final String REJECTION_ID = "x-jarvis-duplicate-rejection-id";

  UniqueByKeyword() {
    super(NAME);
  }

  @Override
  public KeywordValidator newValidator(
      SchemaLocation location, JsonNode schemaNode, Schema parentSchema, SchemaContext context) {
    List<String> fields = new ArrayList<>();
    schemaNode.forEach(field -> fields.add(field.asText()));
    JsonNode rejectionId = parentSchema.getSchemaNode().path(REJECTION_ID);
    if (!rejectionId.isTextual()) {
      throw new IllegalStateException(location + " has no " + REJECTION_ID);
    }
    // Fails at build time, not at validation time, if the spec names an id it does not define.
    ProtocolErrorId id = ProtocolErrorId.fromValue(rejectionId.asText());
    return new Validator(location, schemaNode, List.copyOf(fields), id);
  }

  private final class Validator extends AbstractKeywordValidator {
    private final List<String> fields;
    private final ProtocolErrorId rejectionId;

    Validator(
        SchemaLocation location, JsonNode schemaNode, List<String> fields, ProtocolErrorId id) {
      super(UniqueByKeyword.this, schemaNode, location);
      this.fields = fields;
      this.rejectionId = id;
    }

    @Override
    public void validate(
        ExecutionContext context, JsonNode node, JsonNode rootNode, NodePath instanceLocation) {
      if (!node.isArray()) {
        return;
      }
      Map<List<JsonNode>, Integer> firstIndex = new HashMap<>();
      for (int i = 0; i < node.size(); i++) {
        List<JsonNode> key = key(node.get(i));
        if (key == null) {
          continue;
        }
        Integer first = firstIndex.putIfAbsent(key, i);
        if (first != null) {
          context.addError(
              Error.builder()
                  .keyword(NAME)
                  .index(i)
                  .arguments(rejectionId.getValue(), first)
                  .instanceLocation(instanceLocation.append(i))
                  .evaluationPath(context.getEvaluationPath())
                  .schemaLocation(getSchemaLocation())
                  .schemaNode(schemaNode)
                  .instanceNode(node.get(i))
                  .message("item repeats item " + first + " by " + String.join("+", fields))
                  .build());
        }
      }
    }

    private List<JsonNode> key(JsonNode item) {
      if (!item.isObject()) {
        return null;
      }
      List<JsonNode> key = new ArrayList<>(fields.size());
      for (String field : fields) {
        JsonNode value = item.get(field);
        if (value == null) {
          return null;
        }
        key.add(value);
      }
      return key;
    }
  }
}
