package dev.jarvis.core.validation.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The state of checking one payload: where the checks are in the payload and in the spec, and what
 * they found. Nothing is allocated for paths while the payload is valid: both paths are stacks of
 * segments, copied only when a keyword fails. Not thread-safe: one per payload.
 */
final class Evaluation {

  private Object[] instance = new Object[16];
  private int instanceDepth;
  private String[] schema = new String[48];
  private int schemaDepth;
  private int silent;
  private List<SchemaError> errors;

  /** While positive, failures are only answered ({@code if}, {@code not}), never reported. */
  boolean isSilent() {
    return silent > 0;
  }

  void beginSilent() {
    silent++;
  }

  void endSilent() {
    silent--;
  }

  void enterInstance(Object segment) {
    if (instanceDepth == instance.length) {
      instance = Arrays.copyOf(instance, instanceDepth * 2);
    }
    instance[instanceDepth++] = segment;
  }

  void leaveInstance() {
    instanceDepth--;
  }

  void enterSchema(String segment) {
    if (schemaDepth == schema.length) {
      schema = Arrays.copyOf(schema, schemaDepth * 2);
    }
    schema[schemaDepth++] = segment;
  }

  void leaveSchema(int segments) {
    schemaDepth -= segments;
  }

  /** How many errors were reported so far: a mark to {@link #dropAfter} or {@link #takeAfter}. */
  int errorCount() {
    return errors == null ? 0 : errors.size();
  }

  void dropAfter(int mark) {
    if (errors != null) {
      errors.subList(mark, errors.size()).clear();
    }
  }

  /** Removes and answers the errors reported after the mark. */
  List<SchemaError> takeAfter(int mark) {
    if (errors == null || errors.size() == mark) {
      return List.of();
    }
    List<SchemaError> after = errors.subList(mark, errors.size());
    List<SchemaError> taken = List.copyOf(after);
    after.clear();
    return taken;
  }

  List<SchemaError> errors() {
    return errors == null ? List.of() : errors;
  }

  /** The JSON Pointer text of the current place in the payload. */
  String pointer() {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < instanceDepth; i++) {
      out.append('/');
      out.append(String.valueOf(instance[i]).replace("~", "~0").replace("/", "~1"));
    }
    return out.toString();
  }

  /**
   * Reports keyword {@code keyword} (applied at the current place) as broken.
   *
   * @param text what is wrong, without the location
   */
  void report(String keyword, String property, String text, Object... arguments) {
    if (silent > 0) {
      return;
    }
    String[] path = Arrays.copyOf(schema, schemaDepth + 1);
    path[schemaDepth] = keyword;
    if (errors == null) {
      errors = new ArrayList<>();
    }
    errors.add(
        new SchemaError(
            keyword,
            property,
            List.of(Arrays.copyOf(instance, instanceDepth)),
            List.of(path),
            List.of(arguments),
            text));
  }
}
