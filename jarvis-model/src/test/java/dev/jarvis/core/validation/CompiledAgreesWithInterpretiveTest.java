package dev.jarvis.core.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.Fuzz;
import dev.jarvis.core.FuzzJson;
import dev.jarvis.core.FuzzRandom;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.validation.internal.InterpretiveSpec;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The validator compiled from the spec answers as the interpretive JSON Schema validator it
 * replaced: the same violations (error_id, pointer, in order, with the same reason and remediation)
 * for every payload of the validation corpus, every fixture, and payloads mutated at random from
 * them.
 */
@DisplayName("Compiled validation agrees with the interpretive reference")
class CompiledAgreesWithInterpretiveTest {

  private static final InterpretiveSpec REFERENCE = InterpretiveSpec.of(JarvisSpec.tree());
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** The rule tables whose rows are (…, schema, …, edit(s), …): the validation corpus. */
  private static final List<Class<?>> TABLES =
      List.of(
          JsonSchemaRulesTest.class,
          ContributorRefsTest.class,
          PropertyNamesTest.class,
          ConditionalRulesTest.class,
          HostPrivateFieldsTest.class);

  /** One payload of the corpus: the table row it comes from and its text. */
  record Case(String name, String schema, String json) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> corpus() throws ReflectiveOperationException {
    List<Case> cases = new ArrayList<>();
    for (Class<?> table : TABLES) {
      for (Method source : table.getDeclaredMethods()) {
        if (source.getParameterCount() != 0
            || !Stream.class.equals(source.getReturnType())
            || !java.lang.reflect.Modifier.isStatic(source.getModifiers())) {
          continue;
        }
        source.setAccessible(true);
        Stream<?> rows = (Stream<?>) source.invoke(null);
        rows.forEach(row -> cases.addAll(casesOf(table, source, row)));
      }
    }
    for (String schema : Payloads.schemas()) {
      cases.add(new Case("fixture " + schema, schema, Payloads.valid(schema).toString()));
    }
    return cases.stream();
  }

  @SuppressWarnings("unchecked")
  private static List<Case> casesOf(Class<?> table, Method source, Object row) {
    if (!(row instanceof Arguments arguments)) {
      return List.of();
    }
    Object[] values = arguments.get();
    String schema = null;
    for (Object value : values) {
      if (value instanceof String s && Payloads.schemas().contains(s)) {
        schema = s;
        break;
      }
    }
    List<Case> out = new ArrayList<>();
    if (schema == null) {
      return out;
    }
    for (int i = 0; i < values.length; i++) {
      if (values[i] instanceof Consumer<?> edit) {
        out.add(
            new Case(
                table.getSimpleName() + "." + source.getName() + " " + values[0] + " #" + i,
                schema,
                Payloads.edited(schema, (Consumer<ObjectNode>) edit)));
      }
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void everyCorpusPayloadGetsTheSameViolations(Case c) {
    assertSameVerdict(c.schema(), c.json());
  }

  @Test
  void everyRuleTableOfTheCorpusContributesPayloads() throws ReflectiveOperationException {
    List<String> cases = corpus().map(Case::name).toList();
    for (Class<?> table : TABLES) {
      assertEquals(
          true,
          cases.stream().anyMatch(name -> name.startsWith(table.getSimpleName() + ".")),
          table.getSimpleName() + " contributes no payload: its rows changed shape");
    }
  }

  @Test
  @DisplayName("a payload mutated at random gets the same violations from both")
  void aMutatedPayloadGetsTheSameViolationsFromBoth(TestInfo test) {
    Fuzz.forAll(
        test,
        3000,
        CompiledAgreesWithInterpretiveTest::mutated,
        c -> assertSameVerdict(c.schema(), c.json()));
  }

  private static void assertSameVerdict(String schema, String json) {
    List<ProtocolViolation> compiled = Expect.VALIDATOR.validate(schema, json);
    List<ProtocolViolation> reference = REFERENCE.validate(schema, json);
    assertEquals(shown(reference), shown(compiled), json);
    // Reasons and remediations too: what the user reads does not change either.
    assertEquals(reference, compiled, json);
  }

  private static List<String> shown(List<ProtocolViolation> violations) {
    return violations.stream().map(v -> v.errorId().getValue() + " " + v.field()).toList();
  }

  // ---- Mutations -------------------------------------------------------------------------

  /** Every string the spec's enums and consts hold: values that steer the if/then rules. */
  private static final List<String> SPEC_WORDS = specWords();

  private static final List<String> NAMES =
      List.of(
          "colour",
          "password",
          "API_KEY",
          "acme.review-hint",
          "acme.token",
          "Acme.x",
          "acme",
          "id",
          "status",
          "x:y",
          "a/b~c",
          "",
          "database_primary_key",
          "credential",
          "resolved_at",
          "request_id");

  private static final List<String> TEXTS =
      List.of(
          "",
          " ",
          "id\n",
          "ws protocol",
          "v0.1",
          "v0.2",
          "2026-06-12T18:30:00Z",
          "2026-06-12T18:30:00+02:00",
          "2026-06-12 18:30:00Z",
          "2026-13-12T18:30:00Z",
          "2026-02-30T18:30:00Z",
          "2026-06-30T23:59:60Z",
          "2026-06-12T24:00:00Z",
          "2026-06-12T18:30:00",
          "2026-06-12t18:30:00.123z",
          "actor-human-1",
          "a".repeat(161),
          "é");

  static Case mutated(FuzzRandom random) {
    String schema = random.oneOf(new ArrayList<>(Payloads.schemas()));
    ObjectNode root = Payloads.valid(schema);
    int edits = random.between(1, 3);
    for (int i = 0; i < edits; i++) {
      mutate(random, root);
    }
    return new Case(schema, schema, root.toString());
  }

  private static void mutate(FuzzRandom random, ObjectNode root) {
    List<JsonNode> containers = new ArrayList<>();
    collect(root, containers);
    JsonNode target = random.oneOf(containers);
    if (target instanceof ObjectNode object) {
      List<String> names = new ArrayList<>();
      object.fieldNames().forEachRemaining(names::add);
      switch (random.between(0, 3)) {
        case 0 -> {
          if (!names.isEmpty()) {
            object.remove(random.oneOf(names));
          }
        }
        case 1 -> object.set(random.oneOf(NAMES), value(random));
        default -> {
          if (!names.isEmpty()) {
            object.set(random.oneOf(names), value(random));
          }
        }
      }
    } else if (target instanceof ArrayNode array) {
      switch (random.between(0, 3)) {
        case 0 -> array.removeAll();
        case 1 -> {
          if (!array.isEmpty()) {
            array.add(array.get(random.between(0, array.size() - 1)).deepCopy());
          }
        }
        case 2 -> array.add(value(random));
        default -> {
          if (!array.isEmpty()) {
            array.set(random.between(0, array.size() - 1), value(random));
          }
        }
      }
    }
  }

  private static JsonNode value(FuzzRandom random) {
    return switch (random.between(0, 9)) {
      case 0, 1 -> NODES.textNode(random.oneOf(SPEC_WORDS));
      case 2, 3 -> NODES.textNode(random.oneOf(TEXTS));
      case 4 ->
          random.oneOf(
              List.<JsonNode>of(
                  NODES.numberNode(-1),
                  NODES.numberNode(0),
                  NODES.numberNode(1),
                  NODES.numberNode(1.0),
                  NODES.numberNode(1.5),
                  NODES.numberNode(2),
                  NODES.numberNode(new java.math.BigDecimal("1.00"))));
      case 5 -> random.coin() ? NODES.booleanNode(random.coin()) : NODES.nullNode();
      case 6 -> NODES.arrayNode().add(NODES.textNode(random.oneOf(SPEC_WORDS)));
      case 7 -> NODES.objectNode().put(random.oneOf(NAMES), random.oneOf(TEXTS));
      default -> canonical(FuzzJson.tree(random));
    };
  }

  /** A random tree that canonical JSON can carry, or a plain string if it cannot. */
  private static JsonNode canonical(JsonNode tree) {
    return FuzzJson.cannotCarry(tree) ? NODES.textNode("x") : tree;
  }

  private static void collect(JsonNode node, List<JsonNode> out) {
    if (node.isContainerNode()) {
      out.add(node);
      node.forEach(child -> collect(child, out));
    }
  }

  private static List<String> specWords() {
    TreeSet<String> words = new TreeSet<>();
    collectWords(JarvisSpec.tree().path("components").path("schemas"), words);
    return List.copyOf(words);
  }

  private static void collectWords(JsonNode node, TreeSet<String> words) {
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> member : node.properties()) {
        if (member.getKey().equals("enum")) {
          member.getValue().forEach(v -> words.add(v.asText()));
        } else if (member.getKey().equals("const")) {
          words.add(member.getValue().asText());
        } else {
          collectWords(member.getValue(), words);
        }
      }
    } else if (node.isArray()) {
      node.forEach(child -> collectWords(child, words));
    }
  }
}
