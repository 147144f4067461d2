package dev.jarvis.benchmarks;

import dev.jarvis.client.JarvisCall;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.JarvisRefusalException;
import dev.jarvis.model.PolicyDecision;
import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * How long {@code JarvisClient.create} takes: the first create in a fresh JVM (cold: class loading
 * and whatever is built once per process) and the creates after it (warm), then the first
 * validation of a body (a local refusal: nothing is sent, no host needed), which pays for the
 * spec's compiled schemas if create did not. Run in a fresh JVM per cold sample:
 *
 * <pre>{@code
 * java -cp jarvis-benchmarks/target/jarvis-benchmarks.jar dev.jarvis.benchmarks.ClientStartTime 200
 * }</pre>
 *
 * A main, not a JMH benchmark: a cold start happens once per JVM, which JMH's forks and warm-up are
 * built to hide.
 */
public final class ClientStartTime {

  private ClientStartTime() {}

  public static void main(String[] args) {
    int warmRuns = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    long start = System.nanoTime();
    JarvisClient first = JarvisClient.create(options());
    double coldMs = (System.nanoTime() - start) / 1e6;
    long uptimeAtFirstClient = ManagementFactory.getRuntimeMXBean().getUptime();

    start = System.nanoTime();
    try {
      // An empty PolicyDecision: refused locally by the spec check, before anything is sent.
      first.execute(JarvisCall.recordPolicyDecision("ws-1", new PolicyDecision()));
    } catch (JarvisRefusalException expected) {
      // the point: the first validation, whatever it says
    }
    double firstValidationMs = (System.nanoTime() - start) / 1e6;
    first.close();

    double[] warm = new double[warmRuns];
    for (int i = 0; i < warmRuns; i++) {
      long t = System.nanoTime();
      JarvisClient client = JarvisClient.create(options());
      warm[i] = (System.nanoTime() - t) / 1e6;
      client.close();
    }
    Arrays.sort(warm);
    System.out.printf(
        "cold create %.1f ms (JVM uptime %d ms); first validation %.1f ms; warm create over %d:"
            + " median %.3f ms, p90 %.3f ms, max %.3f ms%n",
        coldMs,
        uptimeAtFirstClient,
        firstValidationMs,
        warmRuns,
        warm[warmRuns / 2],
        warm[(int) (warmRuns * 0.9)],
        warm[warmRuns - 1]);
  }

  private static JarvisClientOptions options() {
    return JarvisClientOptions.builder()
        .baseUri("http://127.0.0.1:9")
        .actorId("actor-agent-1")
        .hostAuth("Bearer not-sent")
        .build();
  }
}
