package dev.jarvis.client.pipeline;

import java.util.ArrayList;
import java.util.List;

/**
 * The links a client's calls pass through, in order from the caller to the host: those that run
 * once per logical call, then those that run once per attempt. The answer comes back up the same
 * links in reverse. Read it with {@code client.pipeline()}; change it through the options.
 *
 * @param perCall once per call, outermost first (your per-call policies come first)
 * @param perAttempt once per attempt, from the retry link down to the transport
 */
public record JarvisPipeline(List<JarvisPolicy> perCall, List<JarvisPolicy> perAttempt) {

  public JarvisPipeline {
    perCall = List.copyOf(perCall);
    perAttempt = List.copyOf(perAttempt);
  }

  /** Every link, per call then per attempt. */
  public List<JarvisPolicy> links() {
    List<JarvisPolicy> all = new ArrayList<>(perCall);
    all.addAll(perAttempt);
    return List.copyOf(all);
  }

  /** The links' names, in order. */
  public List<String> names() {
    return links().stream().map(JarvisPolicy::name).toList();
  }

  @Override
  public String toString() {
    return "per call "
        + perCall.stream().map(JarvisPolicy::name).toList()
        + " -> per attempt "
        + perAttempt.stream().map(JarvisPolicy::name).toList();
  }
}
