package dev.jarvis.core.validation.internal;

import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.Map;

/**
 * The spec shipped in this jar, compiled by the build: implemented by {@code GeneratedSpecChecks},
 * Java source that {@code src/build/java/.../CheckGraphSource} writes from {@link SchemaCompiler}'s
 * graph of the spec into {@code target/generated-sources/spec-checks} and the build compiles into
 * this package. Building it reads no spec, resolves no {@code $ref} and looks up no keyword: it
 * calls the {@link KeywordChecks} constructors with the spec's values as literals.
 *
 * <p>Writing that source runs the compiler, so it is compiled after the hand-written code, which
 * therefore finds it by name ({@link #load}).
 */
interface PrecompiledSpec {

  /** The generated implementation. */
  String GENERATED_CLASS = "dev.jarvis.core.validation.internal.GeneratedSpecChecks";

  /** The names of the spec's component schemas, in document order. */
  List<String> schemaNames();

  /** The component schema of each operation's JSON request body. */
  RequestBodies requestBodies();

  /** Every component schema's checks, built now, by name in document order. */
  Map<String, KeywordChecks.Ref> components();

  /**
   * The generated implementation.
   *
   * @throws IllegalStateException if the jar lacks it (a build that skipped the generation)
   */
  static PrecompiledSpec load() {
    try {
      return Class.forName(GENERATED_CLASS)
          .asSubclass(PrecompiledSpec.class)
          .getDeclaredConstructor()
          .newInstance();
    } catch (ClassNotFoundException
        | NoSuchMethodException
        | InstantiationException
        | IllegalAccessException
        | InvocationTargetException e) {
      throw new IllegalStateException(
          GENERATED_CLASS + " is missing: jarvis-model's build generates it from the spec", e);
    }
  }
}
