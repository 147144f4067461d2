package dev.jarvis.cli.load;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What a load run measured.
 *
 * @param operation what each request did
 * @param connections how many connections
 * @param measuredNanos how long the measured phase took
 * @param latencies the latency of each accepted request of the measured phase, in microseconds
 * @param accepted requests the host accepted in the measured phase
 * @param refusals the measured phase's refusals by {@code error_id} (or {@code status N})
 * @param transportErrors the measured phase's transport failures by kind
 * @param offSpec answers off the spec, and chains or cursors the host did not keep, over the run
 * @param firstProblems the first few of those
 * @param cursorsAgree whether every connection's cursor was the host's at the end
 */
public record LoadResults(
    LoadOperation operation,
    int connections,
    long measuredNanos,
    Histogram latencies,
    long accepted,
    Map<String, Long> refusals,
    Map<String, Long> transportErrors,
    long offSpec,
    List<String> firstProblems,
    boolean cursorsAgree) {

  public LoadResults {
    refusals = Map.copyOf(refusals);
    transportErrors = Map.copyOf(transportErrors);
    firstProblems = List.copyOf(firstProblems);
  }

  /** Whether every answer was on the spec and every cursor agreed: {@code load}'s exit 0. */
  public boolean passed() {
    return offSpec == 0 && cursorsAgree;
  }

  /** Accepted requests per second of the measured phase. */
  public double perSecond() {
    return accepted / (measuredNanos / 1e9);
  }

  /** Refusals and transport failures of the measured phase. */
  public long errors() {
    return sum(refusals) + sum(transportErrors);
  }

  /** The report {@code jarvis-cli load} prints. */
  public void print(PrintStream out) {
    out.printf(
        Locale.ROOT,
        "%s: %,.0f accepted/s over %.1f s with %d connections (%,d accepted)%n",
        operation,
        perSecond(),
        measuredNanos / 1e9,
        connections,
        accepted);
    out.printf(
        Locale.ROOT,
        "latency µs: p50 %,d  p90 %,d  p99 %,d  p99.9 %,d  max %,d%n",
        latencies.getValueAtPercentile(50),
        latencies.getValueAtPercentile(90),
        latencies.getValueAtPercentile(99),
        latencies.getValueAtPercentile(99.9),
        latencies.getMaxValue());
    out.println("refusals by error_id: " + new java.util.TreeMap<>(refusals));
    out.println("transport errors: " + new java.util.TreeMap<>(transportErrors));
    out.println(
        "off-spec answers: " + offSpec + (firstProblems.isEmpty() ? "" : " " + firstProblems));
    out.println("every cursor agrees with the host: " + (cursorsAgree ? "yes" : "NO"));
  }

  /** The report {@code jarvis-cli load --json} writes. */
  public ObjectNode json() {
    ObjectNode root = JarvisJson.mapper().createObjectNode();
    root.put("operation", operation.name());
    root.put("connections", connections);
    root.put("measured_seconds", measuredNanos / 1e9);
    root.put("accepted", accepted);
    root.put("accepted_per_second", perSecond());
    ObjectNode micros = root.putObject("latency_micros");
    for (double p : new double[] {50, 90, 99, 99.9}) {
      micros.put(
          "p" + (p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p)),
          latencies.getValueAtPercentile(p));
    }
    micros.put("max", latencies.getMaxValue());
    ObjectNode refused = root.putObject("refusals");
    new java.util.TreeMap<>(refusals).forEach(refused::put);
    ObjectNode transport = root.putObject("transport_errors");
    new java.util.TreeMap<>(transportErrors).forEach(transport::put);
    root.put("off_spec_answers", offSpec);
    root.put("cursors_agree", cursorsAgree);
    return root;
  }

  private static long sum(Map<String, Long> counts) {
    return counts.values().stream().mapToLong(Long::longValue).sum();
  }
}
