package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.jarvis.model.ProtocolErrorId;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The JSON Schema 2020-12 keywords the spec uses, and its {@code x-jarvis-*} keywords, each as a
 * compiled {@link Check}. They report what the interpretive evaluation they replace reported: the
 * same keyword, property, instance path and evaluation path, so that the one violation mapping
 * ({@link ViolationMapper}) turns both into the same violations.
 */
final class KeywordChecks {

  private KeywordChecks() {}

  /** All keywords of one schema object, each applied whatever the others answer. */
  record AllKeywords(Check[] keywords) implements Check {
    @Override
    public boolean check(JsonNode value, Evaluation run) {
      boolean valid = true;
      for (Check keyword : keywords) {
        if (!keyword.check(value, run)) {
          valid = false;
          if (run.isSilent()) {
            return false;
          }
        }
      }
      return valid;
    }
  }

  /** The JSON types, named as JSON Schema names them. */
  enum JsonType {
    OBJECT,
    ARRAY,
    STRING,
    INTEGER,
    NUMBER,
    BOOLEAN,
    NULL;

    String schemaName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    static JsonType of(JsonNode value) {
      return switch (value.getNodeType()) {
        case OBJECT, POJO -> OBJECT;
        case ARRAY -> ARRAY;
        case STRING, BINARY -> STRING;
        case BOOLEAN -> BOOLEAN;
        case NUMBER ->
            value.isIntegralNumber() || value.canConvertToExactIntegral() ? INTEGER : NUMBER;
        default -> NULL;
      };
    }

    static JsonType named(String name) {
      return valueOf(name.toUpperCase(java.util.Locale.ROOT));
    }

    boolean admits(JsonType actual) {
      return this == actual || (this == NUMBER && actual == INTEGER);
    }
  }

  record Type(JsonType expected) implements Check {
    @Override
    public boolean check(JsonNode value, Evaluation run) {
      JsonType actual = JsonType.of(value);
      if (expected.admits(actual)) {
        return true;
      }
      // A whole number written with a fraction (1.0) is an integer to JSON Schema, but is named
      // by how it is written.
      if (actual == JsonType.INTEGER && !value.isIntegralNumber()) {
        actual = JsonType.NUMBER;
      }
      run.report(
          "type",
          null,
          actual.schemaName() + " found, " + expected.schemaName() + " expected",
          actual.schemaName(),
          expected.schemaName());
      return false;
    }
  }

  record Required(String[] names) implements Check {
    @Override
    public boolean check(JsonNode value, Evaluation run) {
      if (!value.isObject()) {
        return true;
      }
      boolean valid = true;
      for (String name : names) {
        if (!value.has(name)) {
          valid = false;
          if (run.isSilent()) {
            return false;
          }
          run.report("required", name, "required property '" + name + "' not found", name);
        }
      }
      return valid;
    }
  }

  /**
   * {@code properties} with {@code additionalProperties} (false, or a schema) in one pass over the
   * members.
   *
   * @param additional {@code null}: any other member allowed; {@link #REFUSED}: none; else their
   *     schema
   */
  record Properties(Map<String, Check> declared, Check additional, boolean hasProperties)
      implements Check {
    static final Check REFUSED = (value, run) -> false;

    @Override
    public boolean check(JsonNode value, Evaluation run) {
      if (!value.isObject()) {
        return true;
      }
      if (additional == null) {
        return checkDeclared(value, run);
      }
      boolean valid = true;
      for (Map.Entry<String, JsonNode> member : value.properties()) {
        String name = member.getKey();
        Check property = declared.get(name);
        boolean ok;
        if (property != null) {
          run.enterSchema("properties");
          run.enterSchema(name);
          run.enterInstance(name);
          ok = property.check(member.getValue(), run);
          run.leaveInstance();
          run.leaveSchema(2);
        } else if (additional == null) {
          ok = true;
        } else if (additional == REFUSED) {
          ok = false;
          run.report(
              "additionalProperties",
              name,
              "property '"
                  + name
                  + "' is not defined in the schema and the schema does not allow additional"
                  + " properties",
              name);
        } else {
          run.enterSchema("additionalProperties");
          run.enterInstance(name);
          ok = additional.check(member.getValue(), run);
          run.leaveInstance();
          run.leaveSchema(1);
        }
        if (!ok) {
          valid = false;
          if (run.isSilent()) {
            return false;
          }
        }
      }
      return valid;
    }

    /**
     * An open object (an {@code if} testing one property, say): only the declared properties are
     * looked up, not every member walked. Violations are ordered later, so the order they are found
     * in does not show.
     */
    private boolean checkDeclared(JsonNode value, Evaluation run) {
      boolean valid = true;
      for (Map.Entry<String, Check> property : declared.entrySet()) {
        JsonNode member = value.get(property.getKey());
        if (member == null) {
          continue;
        }
        run.enterSchema("properties");
        run.enterSchema(property.getKey());
        run.enterInstance(property.getKey());
        boolean ok = property.getValue().check(member, run);
        run.leaveInstance();
        run.leaveSchema(2);
        if (!ok) {
          valid = false;
          if (run.isSilent()) {
            return false;
          }
        }
      }
      return valid;
    }
  }

  record PropertyNames(Check names) implements Check {
    @Override
    public boolean check(JsonNode value, Evaluation run) {
      if (!value.isObject()) {
        return true;
      }
      boolean valid = true;
      for (Map.Entry<String, JsonNode> member : value.properties()) {
        String name = member.getKey();
        int mark = run.errorCount();
        run.enterInstance(name);
        boolean ok = names.check(TextNode.valueOf(name), run);
        run.leaveInstance();
        if (ok) {
          continue;
        }
        valid = false;
        if (run.isSilent()) {
          return false;
        }
        for (SchemaError inner : run.takeAfter(mark)) {
          String message = inner.message();
          run.report(
              "propertyNames",
              name,
              "property '" + name + "' name is not valid: " + message,
              name,
              message);
        }
      }
      return valid;
    }
  }

  record Items(Check items) implements Check {
    @Override
    public boolean check(JsonNode value, Evaluation run) {
      if (!value.isArray()) {
        return true;
      }
      boolean valid = true;
      run.enterSchema("items");
      for (int i = 0; i < value.size(); i++) {
        run.enterInstance(i);
        boolean ok = items.check(value.get(i), run);
        run.leaveInstance();
        if (!ok) {
          valid = false;
          if (run.isSilent()) {
            break;
          }
        }
      }
      run.leaveSchema(1);
      return valid;
    }
  }

  record MinItems(int min) implements Check {
    @Override
    public boolean check(JsonNode value, Evaluation run) {
      if (!value.isArray() || value.size() >= min) {
        return true;
      }
      run.report(
          "minItems",
          null,
          "must have at least " + min + " items but found " + value.size(),
          min,
          value.size());
      return false;
    }
  }

  record UniqueItems() implements Check {
    @Override
    public boolean check(JsonNode value, Evaluation run) {
      if (!value.isArray() || value.size() < 2 || distinct(value)) {
        return true;
      }
      run.report("uniqueItems", null, "must have only unique items in the array");
      return false;
    }

    private static boolean distinct(JsonNode array) {
      if (array.size() <= 8) {
        for (int i = 1; i < array.size(); i++) {
          for (int j = 0; j < i; j++) {
            if (array.get(i).equals(array.get(j))) {
              return false;
            }
          }
        }
        return true;
      }
      Set<JsonNode> seen = new HashSet<>();
      for (JsonNode item : array) {
        if (!seen.add(item)) {
          return false;
        }
      }
      return true;
    }
  }

  /** {@code x-jarvis-unique-by}, with its {@code x-jarvis-duplicate-rejection-id}. */
  record UniqueBy(String[] fields, ProtocolErrorId rejectionId) implements Check {
    @Override
    public boolean check(JsonNode value, Evaluation run) {
      if (!value.isArray() || value.size() < 2) {
        return true;
      }
      Map<List<JsonNode>, Integer> firstIndex = new HashMap<>();
      boolean valid = true;
      for (int i = 0; i < value.size(); i++) {
        List<JsonNode> key = key(value.get(i));
        if (key == null) {
          continue;
        }
        Integer first = firstIndex.putIfAbsent(key, i);
        if (first != null) {
          valid = false;
          if (run.isSilent()) {
            return false;
          }
          run.enterInstance(i);
          run.report(
              JarvisKeywords.UNIQUE_BY,
              null,
              "item repeats item " + first + " by " + String.join("+", fields),
              rejectionId.getValue(),
              first);
          run.leaveInstance();
        }
      }
      return valid;
    }

    private List<JsonNode> key(JsonNode item) {
      if (!item.isObject()) {
        return null;
      }
      List<JsonNode> key = new ArrayList<>(fields.length);
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

  /** {@code x-jarvis-forbidden-fields}, whether or not the schema also closes the object. */
  record ForbiddenFields(String[] names) implements Check {
    @Override
    public boolean check(JsonNode value, Evaluation run) {
      if (!value.isObject()) {
        return true;
      }
      boolean valid = true;
      for (String name : names) {
        if (value.has(name)) {
          valid = false;
          if (run.isSilent()) {
            return false;
          }
          run.report(
              JarvisKeywords.FORBIDDEN_FIELDS,
              name,
              "property '" + name + "' is a host-private field the spec forbids here",
              name);
        }
      }
      return valid;
    }
  }

  record Enum(Set<JsonNode> values, String shown) implements Check {
    @Override
    public boolean check(JsonNode value, Evaluation run) {
      if (values.contains(value)) {
        return true;
      }
      run.report("enum", null, "does not have a value in the enumeration " + shown, shown);
      return false;
    }
  }

  record Const(JsonNode expected) implements Check {
    @Override
    public boolean check(JsonNode value, Evaluation run) {
      if (expected.equals(value)) {
        return true;
      }
      run.report("const", null, "must be the constant value '" + expected.asText() + "'", expected);
      return false;
    }
  }

  record MinLength(int min) implements Check {
    @Override
    public boolean check(JsonNode value, Evaluation run) {
      if (!value.isTextual() || codePoints(value.textValue()) >= min) {
        return true;
      }
      run.report("minLength", null, "must be at least " + min + " characters long", min);
      return false;
    }
  }

  record MaxLength(int max) implements Check {
    @Override
    public boolean check(JsonNode value, Evaluation run) {
      if (!value.isTextual() || codePoints(value.textValue()) <= max) {
        return true;
      }
      run.report("maxLength", null, "must be at most " + max + " characters long", max);
      return false;
    }
  }

  static int codePoints(String text) {
    return text.codePointCount(0, text.length());
  }

  /** The spec's {@code pattern}: searched, as JSON Schema requires ({@link EcmaPatterns}). */
  record Matches(Predicate<String> found, String source) implements Check {

    /** The pattern {@code source}, compiled. */
    static Matches of(String source) {
      return new Matches(EcmaPatterns.compile(source), source);
    }

    @Override
    public boolean check(JsonNode value, Evaluation run) {
      if (!value.isTextual() || found.test(value.textValue())) {
        return true;
      }
      run.report("pattern", null, "does not match the regex pattern " + source, source);
      return false;
    }
  }

  record Minimum(BigDecimal min, String shown) implements Check {
    @Override
    public boolean check(JsonNode value, Evaluation run) {
      if (!value.isNumber() || compare(value, min) >= 0) {
        return true;
      }
      run.report("minimum", null, "must have a minimum value of " + shown, shown);
      return false;
    }
  }

  record Maximum(BigDecimal max, String shown) implements Check {
    @Override
    public boolean check(JsonNode value, Evaluation run) {
      if (!value.isNumber() || compare(value, max) <= 0) {
        return true;
      }
      run.report("maximum", null, "must have a maximum value of " + shown, shown);
      return false;
    }
  }

  private static int compare(JsonNode number, BigDecimal limit) {
    if (number.isInt() || number.isLong()) {
      return BigDecimal.valueOf(number.longValue()).compareTo(limit);
    }
    if (number.isDouble() || number.isFloat()) {
      double d = number.doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        return Double.compare(d, limit.doubleValue());
      }
    }
    return number.decimalValue().compareTo(limit);
  }

  /** {@code format: date-time}, asserted strictly ({@link Rfc3339DateTime}). */
  record DateTime() implements Check {
    @Override
    public boolean check(JsonNode value, Evaluation run) {
      if (!value.isTextual() || Rfc3339DateTime.isValid(value.textValue())) {
        return true;
      }
      run.report("format", null, "does not match the date-time pattern", "date-time");
      return false;
    }
  }

  /** A {@code $ref} to a component schema, resolved once it is compiled (schemas recurse). */
  static final class Ref implements Check {
    private Check target;

    void resolve(Check target) {
      this.target = target;
    }

    /** The component's compiled schema; {@code null} until resolved. */
    Check target() {
      return target;
    }

    /** The component itself, as the root of an evaluation (no {@code $ref} on the way). */
    boolean checkTarget(JsonNode value, Evaluation run) {
      return target.check(value, run);
    }

    @Override
    public boolean check(JsonNode value, Evaluation run) {
      run.enterSchema("$ref");
      boolean valid = target.check(value, run);
      run.leaveSchema(1);
      return valid;
    }
  }

  /** One application of sub-schemas under an indexed keyword ({@code allOf/0}). */
  record AllOf(Check[] branches, String[] indexes) implements Check {
    @Override
    public boolean check(JsonNode value, Evaluation run) {
      boolean valid = true;
      run.enterSchema("allOf");
      for (int i = 0; i < branches.length; i++) {
        run.enterSchema(indexes[i]);
        boolean ok = branches[i].check(value, run);
        run.leaveSchema(1);
        if (!ok) {
          valid = false;
          if (run.isSilent()) {
            break;
          }
        }
      }
      run.leaveSchema(1);
      return valid;
    }
  }

  /** Valid if one branch is; else every branch's errors stand. */
  record AnyOf(Check[] branches, String[] indexes) implements Check {
    @Override
    public boolean check(JsonNode value, Evaluation run) {
      int mark = run.errorCount();
      run.enterSchema("anyOf");
      try {
        for (int i = 0; i < branches.length; i++) {
          run.enterSchema(indexes[i]);
          boolean ok = branches[i].check(value, run);
          run.leaveSchema(1);
          if (ok) {
            run.dropAfter(mark);
            return true;
          }
        }
        return false;
      } finally {
        run.leaveSchema(1);
      }
    }
  }

  /** {@code if}/{@code then}: the condition is only asked, never reported. */
  record IfThen(Check condition, Check then) implements Check {
    @Override
    public boolean check(JsonNode value, Evaluation run) {
      run.beginSilent();
      boolean applies;
      try {
        applies = condition.check(value, run);
      } finally {
        run.endSilent();
      }
      if (!applies) {
        return true;
      }
      run.enterSchema("then");
      boolean valid = then.check(value, run);
      run.leaveSchema(1);
      return valid;
    }
  }

  record Not(Check schema, String shown) implements Check {
    @Override
    public boolean check(JsonNode value, Evaluation run) {
      run.beginSilent();
      boolean matches;
      try {
        matches = schema.check(value, run);
      } finally {
        run.endSilent();
      }
      if (!matches) {
        return true;
      }
      run.report("not", null, "must not be valid to the schema " + shown, shown);
      return false;
    }
  }
}
