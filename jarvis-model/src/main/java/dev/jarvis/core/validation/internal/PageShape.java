package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.model.ProtocolErrorId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The shape every page of a read beyond the spec shares (the event log's, the inbox's): a JSON
 * object with no field but its own, a boolean {@code has_more}, and an array of records each valid
 * by the spec's schema. Each page adds the checks of its own fields; the findings come in one order
 * (unknown fields, the page's own, {@code has_more}, the records), so the first names the same
 * fault whichever page it is.
 */
public final class PageShape {

  /** The field every page carries: whether a later page follows. */
  public static final String HAS_MORE = "has_more";

  private final String objectType;
  private final Set<String> fields;
  private final String itemsField;
  private final String itemSchema;

  /**
   * @param objectType the {@code object_type} of each finding
   * @param fields every field the page may have
   * @param itemsField the field holding the records
   * @param itemSchema the spec's schema each record is valid by
   */
  public PageShape(String objectType, Set<String> fields, String itemsField, String itemSchema) {
    this.objectType = objectType;
    this.fields = Set.copyOf(fields);
    this.itemsField = itemsField;
    this.itemSchema = itemSchema;
  }

  /**
   * What makes {@code body} no page of this shape; {@code own} adds the findings on the page's own
   * fields. Empty when it is a page.
   */
  public List<ProtocolViolation> violations(
      JsonNode body,
      PayloadValidator validator,
      BiConsumer<JsonNode, List<ProtocolViolation>> own) {
    List<ProtocolViolation> found = new ArrayList<>();
    if (!body.isObject()) {
      found.add(violation("/", "a page is a JSON object"));
      return found;
    }
    body.fieldNames()
        .forEachRemaining(
            name -> {
              if (!fields.contains(name)) {
                found.add(violation("/" + name, "a page has no field " + name));
              }
            });
    own.accept(body, found);
    if (!body.path(HAS_MORE).isBoolean()) {
      found.add(violation("/" + HAS_MORE, HAS_MORE + " is a boolean"));
    }
    JsonNode items = body.path(itemsField);
    if (!items.isArray()) {
      found.add(violation("/" + itemsField, itemsField + " is an array"));
      return found;
    }
    for (int i = 0; i < items.size(); i++) {
      for (ProtocolViolation v : validator.validate(itemSchema, items.get(i))) {
        found.add(
            ProtocolViolation.of(
                v.errorId(), objectType, "/" + itemsField + "/" + i + v.field(), v.reason()));
      }
    }
    return found;
  }

  /** A finding on the page's field {@code field} (a JSON Pointer). */
  public ProtocolViolation violation(String field, String reason) {
    return ProtocolViolation.of(ProtocolErrorId.UNKNOWN_STATE, objectType, field, reason);
  }
}
