package dev.jarvis.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.validation.PayloadValidator;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link PayloadValidator#validate} of the spec's blocked-action Request example (compact, about
 * 1.5 KiB), valid and with one broken rule: from bytes (strict parse included) and from a parsed
 * tree. Target: at least 5× the interpretive validator's throughput. The interpretive validator is
 * no longer on this module's class path; its figure comes from running this class on the commit
 * before (docs/benchmarks.md, "Compiled payload validation").
 */
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class PayloadValidationBenchmark {

  /**
   * {@code compiled}: the shipped validator, whose checks the build generated from the spec; {@code
   * runtime-compiled}: the same checks compiled from the spec tree in this process ({@code
   * PayloadValidator.forSpec(JarvisSpec.tree())}); {@code interpretive}: the reference it replaced.
   */
  @Param({"compiled", "runtime-compiled", "interpretive"})
  String implementation;

  Validation validator;
  byte[] requestBytes;
  JsonNode requestTree;
  JsonNode brokenTree;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    validator =
        switch (implementation) {
          case "compiled" -> compiled(PayloadValidator.forSpec());
          case "runtime-compiled" -> compiled(PayloadValidator.forSpec(JarvisSpec.tree()));
          default -> interpretive();
        };
    JsonNode example =
        JarvisSpec.tree()
            .path("components")
            .path("examples")
            .path("RequestBlockedActionExample")
            .path("value");
    requestBytes = JarvisJson.mapper().writeValueAsBytes(example);
    requestTree = JarvisJson.mapper().readTree(requestBytes);
    brokenTree = requestTree.deepCopy();
    ((ObjectNode) brokenTree).remove("resolved_at");
    ((ObjectNode) brokenTree).put("status", "approved");
    if (!validator.validate("Request", requestBytes).isEmpty()
        || validator.validate("Request", brokenTree).isEmpty()) {
      throw new IllegalStateException("the fixtures do not have the verdicts they stand for");
    }
    System.out.println("Request payload: " + requestBytes.length + " bytes");
  }

  /** The two calls measured, whichever validator answers them. */
  interface Validation {
    List<ProtocolViolation> validate(String schema, byte[] json);

    List<ProtocolViolation> validate(String schema, JsonNode json);
  }

  static Validation compiled(PayloadValidator validator) {
    return new Validation() {
      @Override
      public List<ProtocolViolation> validate(String schema, byte[] json) {
        return validator.validate(schema, json);
      }

      @Override
      public List<ProtocolViolation> validate(String schema, JsonNode json) {
        return validator.validate(schema, json);
      }
    };
  }

  /** The reference from jarvis-model's test classes, looked up once, called through handles. */
  static Validation interpretive() {
    try {
      Class<?> type = Class.forName("dev.jarvis.core.validation.internal.InterpretiveSpec");
      MethodHandles.Lookup lookup = MethodHandles.publicLookup();
      Object spec =
          lookup
              .findStatic(type, "of", MethodType.methodType(type, JsonNode.class))
              .invoke(JarvisSpec.tree());
      MethodType fromBytes = MethodType.methodType(List.class, String.class, byte[].class);
      MethodType fromTree = MethodType.methodType(List.class, String.class, JsonNode.class);
      MethodHandle bytes = lookup.findVirtual(type, "validate", fromBytes).bindTo(spec);
      MethodHandle tree = lookup.findVirtual(type, "validate", fromTree).bindTo(spec);
      return new Validation() {
        @Override
        @SuppressWarnings("unchecked")
        public List<ProtocolViolation> validate(String schema, byte[] json) {
          try {
            return (List<ProtocolViolation>) bytes.invokeExact(schema, json);
          } catch (Throwable e) {
            throw new IllegalStateException(e);
          }
        }

        @Override
        @SuppressWarnings("unchecked")
        public List<ProtocolViolation> validate(String schema, JsonNode json) {
          try {
            return (List<ProtocolViolation>) tree.invokeExact(schema, json);
          } catch (Throwable e) {
            throw new IllegalStateException(e);
          }
        }
      };
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(
          "the interpretive reference needs jarvis-model's test classes and networknt on the"
              + " class path: see docs/benchmarks.md",
          e);
    } catch (Throwable e) {
      throw new IllegalStateException(e);
    }
  }

  @Benchmark
  public List<ProtocolViolation> validRequestFromBytes() {
    return validator.validate("Request", requestBytes);
  }

  @Benchmark
  public List<ProtocolViolation> validRequestFromTree() {
    return validator.validate("Request", requestTree);
  }

  @Benchmark
  public List<ProtocolViolation> brokenRequestFromTree() {
    return validator.validate("Request", brokenTree);
  }
}
