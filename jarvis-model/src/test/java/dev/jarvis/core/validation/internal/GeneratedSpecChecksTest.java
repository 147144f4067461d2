package dev.jarvis.core.validation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisSpec;
import java.lang.reflect.Array;
import java.lang.reflect.RecordComponent;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The checks the build generated from the spec ({@code GeneratedSpecChecks}) are the graph {@link
 * SchemaCompiler} builds from the shipped spec at run time: the same check, with the same values,
 * at every place, and each {@code $ref} pointing to the same component. So the generated form can
 * neither lag behind the spec nor behind the compiler.
 */
class GeneratedSpecChecksTest {

  private static final SpecTree SPEC = new SpecTree(JarvisSpec.tree());
  private static final PrecompiledSpec GENERATED = PrecompiledSpec.load();
  private static final Map<String, KeywordChecks.Ref> GENERATED_GRAPH = GENERATED.components();
  private static final Map<String, KeywordChecks.Ref> COMPILED_GRAPH =
      new SchemaCompiler(SPEC).compileAll();

  static Stream<String> schemaNames() {
    return SPEC.schemaNames().stream();
  }

  @Test
  void theGeneratedFormHasEverySchemaOfTheSpecInDocumentOrder() {
    assertEquals(SPEC.schemaNames(), GENERATED.schemaNames());
    assertEquals(SPEC.schemaNames(), List.copyOf(GENERATED_GRAPH.keySet()));
  }

  @Test
  void theGeneratedFormHasTheRequestBodiesOfTheSpec() {
    assertEquals(RequestBodies.fromSpec(SPEC), GENERATED.requestBodies());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("schemaNames")
  void eachGeneratedSchemaIsTheGraphTheCompilerBuilds(String name) {
    Map<Object, Object> refs = new IdentityHashMap<>();
    for (String component : SPEC.schemaNames()) {
      refs.put(GENERATED_GRAPH.get(component), COMPILED_GRAPH.get(component));
    }
    assertSameGraph(
        GENERATED_GRAPH.get(name).target(),
        COMPILED_GRAPH.get(name).target(),
        name,
        refs,
        new IdentityHashMap<>());
  }

  /**
   * Walks both graphs in step. {@code refs} pairs the generated component links with the compiled
   * ones; {@code seen} stops the walk where the graph recurses ({@code PortableValue}).
   */
  private static void assertSameGraph(
      Object generated,
      Object compiled,
      String at,
      Map<Object, Object> refs,
      Map<Object, Object> seen) {
    if (generated == null || compiled == null) {
      assertSame(compiled, generated, at);
      return;
    }
    if (generated instanceof KeywordChecks.Ref) {
      assertSame(refs.get(generated), compiled, at + ": $ref to another component");
      return;
    }
    if (generated == KeywordChecks.Properties.REFUSED
        || compiled == KeywordChecks.Properties.REFUSED) {
      assertSame(compiled, generated, at);
      return;
    }
    if (seen.put(generated, compiled) != null) {
      return;
    }
    if (generated instanceof Check || generated.getClass().isArray()) {
      assertEquals(compiled.getClass(), generated.getClass(), at);
    }
    if (generated instanceof KeywordChecks.Matches matches) {
      // The predicate is rebuilt from the pattern's source (Matches.of), as the compiler builds it.
      assertEquals(((KeywordChecks.Matches) compiled).source(), matches.source(), at);
    } else if (generated.getClass().isRecord()) {
      for (RecordComponent component : generated.getClass().getRecordComponents()) {
        assertSameGraph(
            read(component, generated),
            read(component, compiled),
            at + "/" + component.getName(),
            refs,
            seen);
      }
    } else if (generated.getClass().isArray()) {
      assertEquals(Array.getLength(compiled), Array.getLength(generated), at);
      for (int i = 0; i < Array.getLength(generated); i++) {
        assertSameGraph(Array.get(generated, i), Array.get(compiled, i), at + "/" + i, refs, seen);
      }
    } else if (generated instanceof Map<?, ?> map) {
      Map<?, ?> other = (Map<?, ?>) compiled;
      assertEquals(other.keySet(), map.keySet(), at);
      for (Object key : map.keySet()) {
        assertSameGraph(map.get(key), other.get(key), at + "/" + key, refs, seen);
      }
    } else if (generated instanceof JsonNode
        || generated instanceof String
        || generated instanceof Number
        || generated instanceof Boolean
        || generated instanceof Enum<?>
        || generated instanceof java.util.Set<?>) {
      // JSON values are compared as nodes: an IntNode never equals a LongNode of the same number.
      assertEquals(compiled, generated, at);
    } else {
      fail(at + ": a " + generated.getClass().getName() + " the comparison does not know");
    }
  }

  private static Object read(RecordComponent component, Object record) {
    try {
      return component.getAccessor().invoke(record);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }
}
