package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Build step of jarvis-model, run after the hand-written code is compiled: compiles the spec's
 * component schemas with {@link SchemaCompiler}, exactly as a run-time compilation would, and
 * writes the graph of checks it built as Java source, {@code GeneratedSpecChecks} (a {@link
 * PrecompiledSpec}), whose methods call the same {@link KeywordChecks} constructors with the same
 * values as literals. The build then compiles that source into the jar.
 *
 * <p>The compiler stays the one place where the spec's keywords are read: this class knows no
 * keyword. It writes values — strings, numbers, enum constants, arrays, maps, sets, JSON scalars
 * and records, whose canonical constructor it calls with their components — plus the three checks
 * that are not plain values: a {@code $ref} ({@link KeywordChecks.Ref}, shared and possibly cyclic,
 * so one variable per component), a pattern (rebuilt from its source by {@link
 * KeywordChecks.Matches#of}) and the refusal of undeclared members ({@link
 * KeywordChecks.Properties#REFUSED}). Anything else fails the build rather than being written
 * wrongly. Maps and sets are written sorted, so the same spec gives the same source.
 *
 * <p>Usage: {@code java -cp target/build-classes:CLASSPATH
 * dev.jarvis.core.validation.internal.CheckGraphSource SPEC.json OUTPUT_SOURCE_ROOT}
 */
public final class CheckGraphSource {

  private static final String CLASS_NAME = "GeneratedSpecChecks";
  private static final String PACKAGE = CheckGraphSource.class.getPackageName();

  private final Map<KeywordChecks.Ref, Integer> componentIndex = new IdentityHashMap<>();

  private CheckGraphSource(Map<String, KeywordChecks.Ref> components) {
    int i = 0;
    for (KeywordChecks.Ref ref : components.values()) {
      componentIndex.put(ref, i++);
    }
  }

  public static void main(String[] args) throws IOException {
    File specJson = new File(args[0]);
    SpecTree spec = new SpecTree(new ObjectMapper().readTree(specJson));
    String source = write(spec, specJson.getName());
    Path out = Path.of(args[1], PACKAGE.replace('.', File.separatorChar), CLASS_NAME + ".java");
    Files.createDirectories(out.getParent());
    Files.writeString(out, source, StandardCharsets.UTF_8);
  }

  /** The source of {@code GeneratedSpecChecks} for the spec. */
  static String write(SpecTree spec, String specName) {
    Map<String, KeywordChecks.Ref> components = new SchemaCompiler(spec).compileAll();
    CheckGraphSource writer = new CheckGraphSource(components);
    StringBuilder out = new StringBuilder();
    out.append("package ").append(PACKAGE).append(";\n\n");
    for (Class<?> type :
        List.of(
            BigDecimal.class,
            BooleanNode.class,
            IntNode.class,
            LongNode.class,
            NullNode.class,
            TextNode.class,
            List.class,
            Map.class,
            Set.class,
            java.util.LinkedHashMap.class,
            java.util.Collections.class)) {
      out.append("import ").append(type.getName()).append(";\n");
    }
    out.append("\n/**\n")
        .append(" * The checks of ")
        .append(specName)
        .append(", compiled by the build: written by {@code CheckGraphSource} from\n")
        .append(" * {@link SchemaCompiler}'s graph. Generated, never edited or committed.\n")
        .append(" */\n")
        .append("final class ")
        .append(CLASS_NAME)
        .append(" implements PrecompiledSpec {\n\n");

    out.append("  @Override\n  public List<String> schemaNames() {\n    return ")
        .append(writer.value(spec.schemaNames()))
        .append(";\n  }\n\n");
    out.append("  @Override\n  public RequestBodies requestBodies() {\n    return ")
        .append(writer.value(RequestBodies.fromSpec(spec)))
        .append(";\n  }\n\n");

    int count = components.size();
    out.append("  @Override\n  public Map<String, KeywordChecks.Ref> components() {\n")
        .append("    KeywordChecks.Ref[] c = new KeywordChecks.Ref[")
        .append(count)
        .append("];\n")
        .append("    for (int i = 0; i < c.length; i++) {\n")
        .append("      c[i] = new KeywordChecks.Ref();\n")
        .append("    }\n");
    for (int i = 0; i < count; i++) {
      out.append("    c[").append(i).append("].resolve(c").append(i).append("(c));\n");
    }
    out.append("    Map<String, KeywordChecks.Ref> byName = new LinkedHashMap<>();\n");
    int i = 0;
    for (String name : components.keySet()) {
      out.append("    byName.put(")
          .append(literal(name))
          .append(", c[")
          .append(i++)
          .append("]);\n");
    }
    out.append("    return Collections.unmodifiableMap(byName);\n  }\n");

    i = 0;
    for (Map.Entry<String, KeywordChecks.Ref> component : components.entrySet()) {
      out.append("\n  /** ")
          .append(component.getKey())
          .append(". */\n")
          .append("  private static Check c")
          .append(i++)
          .append("(KeywordChecks.Ref[] c) {\n    return ")
          .append(writer.value(component.getValue().target(), 2))
          .append(";\n  }\n");
    }
    out.append("}\n");
    return out.toString();
  }

  private String value(Object value) {
    return value(value, 2);
  }

  /** The Java expression of the value; {@code depth} indents the lines it spans. */
  private String value(Object value, int depth) {
    if (value == null) {
      return "null";
    }
    if (value instanceof KeywordChecks.Ref ref) {
      Integer index = componentIndex.get(ref);
      if (index == null) {
        throw new IllegalStateException("a $ref to no component schema");
      }
      return "c[" + index + "]";
    }
    if (value == KeywordChecks.Properties.REFUSED) {
      return "KeywordChecks.Properties.REFUSED";
    }
    if (value instanceof KeywordChecks.Matches matches) {
      return "KeywordChecks.Matches.of(" + literal(matches.source()) + ")";
    }
    if (value instanceof String text) {
      return literal(text);
    }
    if (value instanceof Integer || value instanceof Boolean) {
      return value.toString();
    }
    if (value instanceof Long number) {
      return number + "L";
    }
    if (value instanceof BigDecimal number) {
      return "new BigDecimal(" + literal(number.toString()) + ")";
    }
    if (value instanceof Enum<?> constant) {
      return typeName(constant.getDeclaringClass()) + "." + constant.name();
    }
    if (value instanceof JsonNode node) {
      return json(node);
    }
    if (value.getClass().isArray()) {
      List<String> items = new ArrayList<>();
      for (int i = 0; i < Array.getLength(value); i++) {
        items.add(value(Array.get(value, i), depth + 1));
      }
      return "new " + typeName(value.getClass().getComponentType()) + "[] " + braces(items, depth);
    }
    if (value instanceof List<?> list) {
      List<String> items = new ArrayList<>();
      list.forEach(item -> items.add(value(item, depth + 1)));
      return "List.of" + parentheses(items, depth);
    }
    if (value instanceof Set<?> set) {
      List<String> items = new ArrayList<>();
      set.forEach(item -> items.add(value(item, depth + 1)));
      items.sort(null);
      return "Set.of" + parentheses(items, depth);
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, String> entries = new TreeMap<>();
      map.forEach(
          (key, item) ->
              entries.put(
                  value(key, depth + 1),
                  "Map.entry(" + value(key, depth + 1) + ", " + value(item, depth + 1) + ")"));
      return "Map.ofEntries" + parentheses(List.copyOf(entries.values()), depth);
    }
    if (value.getClass().isRecord()) {
      return record((Record) value, depth);
    }
    throw new IllegalStateException(
        "cannot write a " + value.getClass().getName() + " as source: " + value);
  }

  private String record(Record value, int depth) {
    List<String> arguments = new ArrayList<>();
    for (RecordComponent component : value.getClass().getRecordComponents()) {
      try {
        arguments.add(value(component.getAccessor().invoke(value), depth + 1));
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new IllegalStateException("cannot read " + component, e);
      }
    }
    return "new " + typeName(value.getClass()) + parentheses(arguments, depth);
  }

  /** A JSON scalar, as the same node class the spec's parser made (equality depends on it). */
  private static String json(JsonNode node) {
    if (node instanceof TextNode) {
      return "TextNode.valueOf(" + literal(node.textValue()) + ")";
    }
    if (node instanceof BooleanNode) {
      return node.booleanValue() ? "BooleanNode.TRUE" : "BooleanNode.FALSE";
    }
    if (node instanceof IntNode) {
      return "IntNode.valueOf(" + node.intValue() + ")";
    }
    if (node instanceof LongNode) {
      return "LongNode.valueOf(" + node.longValue() + "L)";
    }
    if (node instanceof NullNode) {
      return "NullNode.getInstance()";
    }
    throw new IllegalStateException(
        "a " + node.getNodeType() + " constant (" + node + ") is not used by the spec");
  }

  /** The type's name as the generated class, in this package, spells it. */
  private static String typeName(Class<?> type) {
    String name = type.getCanonicalName();
    String where = type.getPackageName();
    return where.equals(PACKAGE) || where.equals("java.lang")
        ? name.substring(where.length() + 1)
        : name;
  }

  private static String parentheses(List<String> items, int depth) {
    return enclosed("(", items, ")", depth);
  }

  private static String braces(List<String> items, int depth) {
    return enclosed("{", items, "}", depth);
  }

  /** Short lists on one line, others one item a line. */
  private static String enclosed(String open, List<String> items, String close, int depth) {
    String oneLine = String.join(", ", items);
    if (oneLine.length() <= 60 && !oneLine.contains("\n")) {
      return open + oneLine + close;
    }
    String indent = "  ".repeat(depth + 1);
    return open + "\n" + indent + String.join(",\n" + indent, items) + close;
  }

  /** A Java string literal; ASCII only, so the source reads the same in any encoding. */
  static String literal(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\%03o", (int) c));
          } else if (c > 0x7e) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
