package dev.jarvis.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.samples.SampleRecords;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * What the payload validator costs to start, in a fresh JVM with Jackson already loaded: building
 * it, its first valid payload (a PolicyDecision), its first broken one (the same schema, empty: the
 * violation mapping's first use) and then one payload of every other schema. Measured as CPU time
 * of the calling thread, which a loaded machine disturbs far less than wall time. Run one JVM per
 * sample:
 *
 * <pre>{@code
 * java -cp jarvis-benchmarks/target/jarvis-benchmarks.jar dev.jarvis.benchmarks.ValidatorStartTime compiled
 * java -cp jarvis-benchmarks/target/jarvis-benchmarks.jar dev.jarvis.benchmarks.ValidatorStartTime runtime-compiled
 * }</pre>
 *
 * {@code compiled}: the shipped validator, from the checks the build generated from the spec;
 * {@code runtime-compiled}: the spec's tree parsed and compiled in this process, as the shipped
 * validator did before the checks were generated.
 */
public final class ValidatorStartTime {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private ValidatorStartTime() {}

  public static void main(String[] args) throws Exception {
    boolean generated = args.length == 0 || args[0].equals("compiled");
    String valid =
        JarvisJson.mapper()
            .writeValueAsString(
                SampleRecords.policyDecision(
                    "pd-start-1", "ws-start-1", "actor-start-1", "2026-06-12T18:30:00Z"));

    long start = cpu();
    PayloadValidator validator =
        generated ? PayloadValidator.forSpec() : PayloadValidator.forSpec(JarvisSpec.tree());
    long built = cpu();
    boolean validOk = validator.validate("PolicyDecision", valid).isEmpty();
    long firstValid = cpu();
    boolean brokenOk = !validator.validate("PolicyDecision", "{}").isEmpty();
    long firstBroken = cpu();
    JsonNode text = TextNode.valueOf("x");
    for (String schema : validator.schemaNames()) {
      validator.validate(schema, text);
    }
    long everySchema = cpu();
    if (!validOk || !brokenOk) {
      throw new IllegalStateException("the payloads do not have the verdicts they stand for");
    }
    System.out.printf(
        "%s, CPU ms: build %.1f; first valid payload %.1f; first broken payload %.1f;"
            + " build + first valid %.1f; every other schema once %.1f%n",
        generated ? "compiled" : "runtime-compiled",
        ms(built - start),
        ms(firstValid - built),
        ms(firstBroken - firstValid),
        ms(firstValid - start),
        ms(everySchema - firstBroken));
  }

  private static long cpu() {
    return THREADS.getCurrentThreadCpuTime();
  }

  private static double ms(long nanos) {
    return nanos / 1e6;
  }
}
